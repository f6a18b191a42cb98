package dev.baton.framework;

/** The client (or the recipe) was closed; nothing more can be done with it. */
public class ClientClosedException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * {@code operation} on {@code path} refused because the client (or the recipe) is closed.
     *
     * @param operation what was asked ({@code "getData"}, {@code "acquire"}, ...)
     * @param path the path it was asked for, or null
     */
    public ClientClosedException(String operation, String path) {
        super(null, operation, path, "the client is closed", null);
    }
}

package dev.baton.framework;

/** The client (or the recipe) was closed; nothing more can be done with it. */
public class ClientClosedException extends BatonException {
    private static final long serialVersionUID = 1L;

    public ClientClosedException(String operation, String path) {
        super(null, operation, path, "the client is closed", null);
    }
}

package dev.baton.framework;

/**
 * The client was built but {@link BatonClient#start()} was never called, so the request was not
 * sent: call {@code start()} first. Every operation of a client that is not started fails with it at once.
 */
public class ClientNotStartedException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * {@code operation} on {@code path} refused because the client is not started yet.
     *
     * @param operation what was asked ({@code "getData"}, {@code "blockUntilConnected"}, ...)
     * @param path the path it was asked for, or null
     */
    public ClientNotStartedException(String operation, String path) {
        super(null, operation, path, "the client is not started; call start() first", null);
    }
}

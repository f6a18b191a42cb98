package dev.baton.server;

/**
 * An embedded ensemble could not be built, started or controlled: a port was taken, a data
 * directory was not writable, the servers did not form a quorum in time, the jars of a requested
 * server version were not found ({@link MissingServerJarsException}). The message names the
 * setting or the server involved.
 */
public class EnsembleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An ensemble failure, explained in {@code message}.
     *
     * @param message which server, and what went wrong
     */
    public EnsembleException(String message) {
        super(message);
    }

    /**
     * An ensemble failure, explained in {@code message}, caused by {@code cause}.
     *
     * @param message which server, and what went wrong
     * @param cause the failure underneath, or null
     */
    public EnsembleException(String message, Throwable cause) {
        super(message, cause);
    }
}

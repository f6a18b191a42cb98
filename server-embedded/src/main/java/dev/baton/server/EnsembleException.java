package dev.baton.server;

/**
 * An embedded ensemble could not be built, started or controlled: a port was taken, a data
 * directory was not writable, the servers did not form a quorum in time. The message names the
 * setting or the server involved.
 */
public final class EnsembleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EnsembleException(String message) {
        super(message);
    }

    public EnsembleException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.baton.server;

/**
 * An embedded ensemble could not be built, started or controlled: a server failed to start, the
 * servers did not form a quorum in time, the jars of a requested server version were not found
 * ({@link MissingServerJarsException}). The message names the setting or the server involved. A
 * bad setting, a client port already taken or a data folder that cannot be used (not writable,
 * a file, another running ensemble's) is an {@link IllegalArgumentException} from
 * {@link EmbeddedEnsemble.Builder#build()} instead.
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

package dev.baton.framework;

import java.time.Duration;
import java.util.Objects;

/**
 * The client found no connection to the ensemble within its connection timeout, so the operation
 * was never sent. Not retried by the retry policy: the wait for a connection was the retry.
 *
 * <p>A {@link ConnectionLossException}, so code that handles "no ensemble" in one place keeps
 * working; catch this type to tell "never reached a server" apart from "lost the connection while
 * the request was in flight" (where the request may have been applied).
 */
public class NoConnectionException extends ConnectionLossException {
    private static final long serialVersionUID = 1L;

    /** How long the operation waited for a connection. */
    private final Duration waited;

    /**
     * {@code operation} on {@code path} found no connection within {@code waited}.
     *
     * @param operation the operation that was never sent ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param waited how long it waited for a connection
     */
    public NoConnectionException(String operation, String path, Duration waited) {
        super(operation, path, "no connection to the ensemble within " + Objects.requireNonNull(waited, "waited"), null);
        this.waited = waited;
    }

    /** {@return how long the operation waited for a connection (the client's connection timeout)} */
    public Duration waited() {
        return waited;
    }
}

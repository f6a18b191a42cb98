package dev.baton.framework;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The one classification of Baton's failures, and the one way to take a failure out of a future's
 * wrappers: what recipes and the framework ask of an exception, answered in one place so that every
 * recipe gives the same answer.
 *
 * <p><b>Connection trouble</b> ({@link #isConnectionTrouble}) is a failure that says nothing about the
 * data, only about the client's link to the ensemble, and that the next connection (or the next
 * session) cures: {@link ConnectionLossException} (with {@link NoConnectionException}),
 * {@link OperationTimeoutException}, {@link SessionMovedException} and {@link SessionExpiredException}.
 * It is not: {@link ClientClosedException} (no connection will come: the client is closed), and
 * every answer about the data ({@link NoNodeException}, {@link NodeExistsException},
 * {@link BadVersionException}, ...), even where a recipe reads "my node is gone" as a sign of an expired
 * session; such a recipe says so at its call site.
 *
 * <p>The client's retry loop retries a narrower set: connection trouble except an expired session
 * (an operation tied to a session cannot be replayed on the next one) and
 * {@link NoConnectionException} (it already waited the whole connection timeout).
 *
 * <pre>{@code
 * } catch (ExecutionException e) {
 *     if (Failures.isConnectionTrouble(e)) {   // unwraps by itself
 *         waitForTheNextConnection();
 *     } else {
 *         throw Failures.rethrow(e);
 *     }
 * }
 * }</pre>
 */
public final class Failures {
    private Failures() {
    }

    /**
     * {@return the failure inside any {@link CompletionException}s and {@link ExecutionException}s}
     *
     * @param failure a failure, maybe wrapped (not null)
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /**
     * {@code failure}, unwrapped, as an unchecked exception to throw: a {@link RuntimeException} as
     * itself, an {@link Error} thrown at once, anything else (a checked exception, which Baton's own
     * futures never complete with) inside a {@link BatonException}.
     *
     * @param failure a failure, maybe wrapped
     * @return the exception to throw; {@code throw Failures.rethrow(e)} tells the compiler the caller ends
     */
    public static RuntimeException rethrow(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof RuntimeException r) {
            return r;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new BatonException(String.valueOf(cause), cause);
    }

    /**
     * Whether {@code failure} (unwrapped) is connection trouble: a loss of connection or session that the
     * next connection cures, as the class comment defines it.
     *
     * @param failure a failure, maybe wrapped
     * @return whether it is {@link ConnectionLossException}, {@link OperationTimeoutException},
     *     {@link SessionMovedException} or {@link SessionExpiredException} (or a subclass)
     */
    public static boolean isConnectionTrouble(Throwable failure) {
        Throwable cause = unwrap(failure);
        return cause instanceof ConnectionLossException || cause instanceof OperationTimeoutException
            || cause instanceof SessionMovedException || cause instanceof SessionExpiredException;
    }

    /**
     * Whether {@code failure} (unwrapped), the failure of a delete of a node in the client's session,
     * only means that the node goes later: connection trouble (a guaranteed delete finishes in the
     * background, or the node went with its expired session) or a {@link ClientClosedException}
     * (closing the client ended the session, and the node with it).
     *
     * @param failure a delete's failure, maybe wrapped
     * @return whether it is connection trouble or a closed client
     */
    public static boolean goesInBackground(Throwable failure) {
        return isConnectionTrouble(failure) || unwrap(failure) instanceof ClientClosedException;
    }
}

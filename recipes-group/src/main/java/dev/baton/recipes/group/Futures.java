package dev.baton.recipes.group;

import dev.baton.framework.BatonException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionLossException;
import dev.baton.framework.OperationTimeoutException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.SessionMovedException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reading failures out of this module's futures, and waiting for a delete. (It was part of the
 * framework's public {@code Acquisitions}; to be replaced by the framework's one await and
 * failure classification once those exist.)
 */
final class Futures {
    private static final Logger LOG = LoggerFactory.getLogger(Futures.class);

    private Futures() {
    }

    /**
     * Waits for a release's delete when it can finish soon ({@code wait}: the client is
     * connected), without being interruptible (the interrupt is kept). Failures that only mean
     * "the node goes later or went with the session" are logged: the guaranteed delete finishes
     * in the background.
     *
     * @param delete the release's delete
     * @param wait whether to wait for it (the client is connected)
     * @param what the released grant, for the log
     */
    static void awaitDelete(CompletableFuture<Void> delete, boolean wait, String what) {
        if (!wait) {
            return;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    delete.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = unwrap(e.getCause());
                    if (isConnectionTrouble(cause)) {
                        LOG.debug("release of {} continues in the background: {}", what, cause.toString());
                        return;
                    }
                    throw rethrow(cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Failures after which a node is deleted in the background, or is gone with its session.
     *
     * @param cause a failure
     * @return whether {@code cause} means the node is deleted in the background, or went with its session
     */
    static boolean isConnectionTrouble(Throwable cause) {
        return cause instanceof ConnectionLossException || cause instanceof OperationTimeoutException
            || cause instanceof SessionMovedException || cause instanceof SessionExpiredException
            || cause instanceof ClientClosedException;
    }

    /**
     * {@return the failure inside {@link CompletionException}s and {@link ExecutionException}s}
     *
     * @param t a failure, maybe wrapped
     */
    static Throwable unwrap(Throwable t) {
        Throwable cause = t;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /**
     * {@code t}, unwrapped, as an unchecked exception to throw (an {@link Error} is thrown at once).
     *
     * @param t a failure, maybe wrapped
     * @return never returns normally: {@code throw rethrow(t)} tells the compiler so
     */
    static RuntimeException rethrow(Throwable t) {
        Throwable cause = unwrap(t);
        if (cause instanceof RuntimeException r) {
            return r;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new BatonException(String.valueOf(cause), cause);
    }
}

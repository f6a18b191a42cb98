package dev.baton.recipes.lock;

import dev.baton.framework.BatonException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionLossException;
import dev.baton.framework.OperationTimeoutException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.SessionMovedException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waiting on this module's acquisitions and releases: mapping an acquisition so that cancelling
 * the result cancels the attempt and a late grant is given back, waiting for one so that an
 * interrupt leaves nothing behind, waiting for a release's delete, and reading failures out of
 * futures. (It was the framework's public {@code Acquisitions}; the framework's own uses now live
 * in its contention package, privately. To be replaced by the framework's one await and failure
 * classification once those exist.)
 */
final class Acquiring {
    private static final Logger LOG = LoggerFactory.getLogger(Acquiring.class);

    private Acquiring() {
    }

    /**
     * {@code source} mapped by {@code fn} (a null value stays null), where cancelling the result
     * cancels {@code source}, and a value that arrives after the result was cancelled is handed
     * to {@code orphan} so that what it grants is given back. For a side-effect-free {@code fn}.
     *
     * @param <T> what {@code source} completes with
     * @param <R> what the result completes with
     * @param source the acquisition
     * @param fn maps its value
     * @param orphan gives back a value that arrives after the result was cancelled
     * @return the mapped future
     */
    static <T, R> CompletableFuture<R> map(CompletableFuture<T> source, Function<T, R> fn, Consumer<T> orphan) {
        CompletableFuture<R> result = new CompletableFuture<>();
        source.whenComplete((value, e) -> {
            if (e != null) {
                result.completeExceptionally(unwrap(e));
                return;
            }
            if (value == null) {
                result.complete(null);
                return;
            }
            if (result.isDone()) {
                orphan.accept(value);
                return;
            }
            R mapped;
            try {
                mapped = fn.apply(value);
            } catch (RuntimeException | Error failure) {
                orphan.accept(value);
                result.completeExceptionally(failure);
                return;
            }
            if (!result.complete(mapped)) {
                orphan.accept(value);
            }
        });
        result.whenComplete((value, e) -> {
            if (result.isCancelled()) {
                source.cancel(true);
            }
        });
        return result;
    }


    /**
     * Waits for a future the caller started; an interrupt cancels it (so nothing of it is left)
     * and is rethrown. A value that arrived anyway is given to {@code orphan}.
     *
     * @param <T> what {@code future} completes with
     * @param future the acquisition the caller started
     * @param orphan gives back a value that arrived after an interrupt
     * @return the future's value
     * @throws InterruptedException if the calling thread is interrupted while it waits (the future is
     *     cancelled)
     */
    static <T> T await(CompletableFuture<T> future, Consumer<T> orphan) throws InterruptedException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            if (!future.cancel(true)) {
                T arrived = future.getNow(null);
                if (arrived != null) {
                    orphan.accept(arrived);
                }
            }
            throw e;
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (CancellationException e) {
            throw new BatonException("the acquisition was cancelled", e);
        }
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
     * {@code timeout}, checked for a timed acquisition: not null, not negative ({@link Duration#ZERO}: look
     * once).
     *
     * @param timeout the timeout given
     * @return {@code timeout}
     */
    static Duration checkTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        return timeout;
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

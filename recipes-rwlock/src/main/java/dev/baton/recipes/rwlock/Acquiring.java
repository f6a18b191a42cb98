package dev.baton.recipes.rwlock;

import dev.baton.framework.BatonException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * Waiting on this module's acquisitions and reading failures out of futures. (It was part of the
 * framework's public {@code Acquisitions}; to be replaced by the framework's one await and
 * failure classification once those exist.)
 */
final class Acquiring {
    private Acquiring() {
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

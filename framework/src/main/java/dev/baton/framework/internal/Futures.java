package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.NoNodeException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** Waiting on the framework's futures from blocking code. */
public final class Futures {
    private Futures() {
    }

    /**
     * Waits for {@code future} and returns its value, rethrowing a {@link BatonException} (or any
     * unchecked failure) as itself.
     */
    public static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (CancellationException e) {
            throw new BatonException("cancelled", e);
        }
    }

    /**
     * {@code future}, with "no such node" read as a null result: for steps whose node may be gone
     * by the time they run (deleted meanwhile, or by an earlier attempt), where gone is the answer.
     * Every other failure passes through, unwrapped.
     *
     * @param <T> the future's value
     * @param future the step
     * @return {@code future}'s value, null if the node was not there
     */
    public static <T> CompletableFuture<T> nullIfNoNode(CompletableFuture<T> future) {
        return future.exceptionallyCompose(e -> Errors.unwrap(e) instanceof NoNodeException
            ? CompletableFuture.completedFuture(null)
            : CompletableFuture.failedFuture(Errors.unwrap(e)));
    }

    /** {@code t} as an unchecked exception to throw. */
    public static RuntimeException rethrow(Throwable t) {
        Throwable cause = Errors.unwrap(t);
        if (cause instanceof RuntimeException r) {
            return r;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new BatonException(String.valueOf(cause), cause);
    }
}

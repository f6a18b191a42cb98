package dev.baton.framework;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Waiting on the client's futures from blocking code: the one {@code await} of the framework and
 * the recipes. A failure comes out as itself ({@link Failures#rethrow}): a {@link BatonException}
 * stays the {@link BatonException} the operation raised, never wrapped in an
 * {@link ExecutionException} or an {@link IllegalStateException}.
 *
 * <pre>{@code
 * NodeData data = Futures.await(client.getData().forPathWithStatAsync(path));
 * }</pre>
 */
public final class Futures {
    private Futures() {
    }

    /**
     * Waits for {@code future} and returns its value. An interrupt is thrown and leaves the future
     * alone: cancelling it would not stop an operation the server may already have applied.
     *
     * @param <T> the future's value
     * @param future what to wait for
     * @return the future's value
     * @throws InterruptedException if the calling thread is interrupted while it waits
     * @throws BatonException (or another unchecked exception) the future failed with, unwrapped; a
     *     cancelled future as a {@link BatonException} saying so
     */
    public static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw Failures.rethrow(e.getCause());
        } catch (CancellationException e) {
            throw new BatonException("cancelled", e);
        }
    }

    /**
     * {@code future}, with "no such node" read as a null result: for steps whose node may be gone by
     * the time they run, where gone is the answer. Every other failure passes through, unwrapped.
     *
     * @param <T> the future's value
     * @param future the step
     * @return {@code future}'s value, null if the node was not there
     */
    public static <T> CompletableFuture<T> nullIfNoNode(CompletableFuture<T> future) {
        return future.exceptionallyCompose(e -> Failures.unwrap(e) instanceof NoNodeException
            ? CompletableFuture.completedFuture(null)
            : CompletableFuture.failedFuture(Failures.unwrap(e)));
    }
}

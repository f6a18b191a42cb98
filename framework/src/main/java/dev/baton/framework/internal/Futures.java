package dev.baton.framework.internal;

import java.util.concurrent.CompletableFuture;

/**
 * The contention engine's name for {@link dev.baton.framework.Futures} and
 * {@link dev.baton.framework.Failures}, kept only until the engine's rework calls those directly;
 * new code uses them.
 */
public final class Futures {
    private Futures() {
    }

    /** {@link dev.baton.framework.Futures#await}. */
    public static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        return dev.baton.framework.Futures.await(future);
    }

    /** {@link dev.baton.framework.Futures#nullIfNoNode}. */
    public static <T> CompletableFuture<T> nullIfNoNode(CompletableFuture<T> future) {
        return dev.baton.framework.Futures.nullIfNoNode(future);
    }

    /** {@link dev.baton.framework.Failures#rethrow}. */
    public static RuntimeException rethrow(Throwable t) {
        return dev.baton.framework.Failures.rethrow(t);
    }
}

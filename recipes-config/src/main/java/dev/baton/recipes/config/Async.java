package dev.baton.recipes.config;

import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.NoNodeException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Waiting on the client's futures from blocking code, with the framework's failures thrown as themselves. */
final class Async {
    private Async() {
    }

    static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        return Futures.await(future);
    }

    /** {@code future}'s value, or empty when it failed for lack of a node. */
    static <T> CompletableFuture<Optional<T>> orAbsent(CompletableFuture<T> future) {
        return future.thenApply(Optional::of).exceptionally(e -> {
            if (unchecked(e) instanceof NoNodeException) {
                return Optional.empty();
            }
            throw unchecked(e);
        });
    }

    static RuntimeException unchecked(Throwable t) {
        return Failures.rethrow(t);
    }
}

package dev.baton.recipes.config;

import dev.baton.framework.BatonException;
import dev.baton.framework.NoNodeException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Waiting on the client's futures from blocking code, with the framework's failures thrown as themselves. */
final class Async {
    private Async() {
    }

    static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw unchecked(e.getCause());
        } catch (CancellationException e) {
            throw new BatonException("cancelled", e);
        }
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
        Throwable cause = t;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof RuntimeException r) {
            return r;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new BatonException(String.valueOf(cause), cause);
    }
}

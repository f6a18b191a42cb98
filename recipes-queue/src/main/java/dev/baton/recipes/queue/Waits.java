package dev.baton.recipes.queue;

import dev.baton.framework.BatonException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** Waiting on the framework's futures from a blocking method. */
final class Waits {
    private Waits() {
    }

    /** The failure inside a future's completion wrapper. */
    public static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof java.util.concurrent.CompletionException || current instanceof ExecutionException)
            && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /** The future's value; its BatonException (or other unchecked failure) is thrown as is. */
    public static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new BatonException("unexpected failure: " + cause, cause);
        } catch (InterruptedException e) {
            future.cancel(false);
            throw e;
        }
    }
}

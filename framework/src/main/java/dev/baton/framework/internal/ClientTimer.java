package dev.baton.framework.internal;

import dev.baton.framework.BatonClient;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task later on a client's async executor: timed by its scheduler thread for a client of
 * Baton's own (which never runs the task itself, and drops it when the client closes), else by the
 * JDK's shared delayer. Once the client is closed its async executor refuses, and the task is dropped.
 */
public final class ClientTimer {
    private ClientTimer() {
    }

    /**
     * Runs {@code task} on {@code client}'s async executor after {@code nanos}, unless the client is closed by then.
     *
     * @param client whose timer and executor to use
     * @param nanos how long to wait
     * @param task what to run
     */
    public static void schedule(BatonClient client, long nanos, Runnable task) {
        if (client instanceof NamespacedClient own) {
            try {
                own.core.scheduler.schedule(() -> {
                    try {
                        own.core.async.execute(task);
                    } catch (RejectedExecutionException closed) {
                        // the client closed meanwhile
                    }
                }, nanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closed) {
                // the client closed meanwhile
            }
            return;
        }
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS, client.asyncExecutor()).execute(task);
    }
}

package dev.baton.framework.internal;

import dev.baton.framework.BatonClient;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task later on a client's async executor: timed by its scheduler thread for a client of
 * Baton's own (which never runs the task itself, and drops it when the client closes), else by the
 * JDK's shared delayer. Once the client is closed its async executor refuses, and the task is dropped.
 * Cancelling what {@link #schedule} returns takes the timer off its queue at once, so a timer that is
 * no longer wanted (the wait it would end ended) keeps nothing alive until it would have run.
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
     * @return cancel it ({@code cancel(false)}) to drop the task and the timer's hold on it
     */
    public static Future<?> schedule(BatonClient client, long nanos, Runnable task) {
        if (client instanceof NamespacedClient own) {
            try {
                // the scheduler removes a cancelled timer from its queue (setRemoveOnCancelPolicy)
                return own.core.scheduler.schedule(() -> {
                    try {
                        own.core.async.execute(task);
                    } catch (RejectedExecutionException closed) {
                        // the client closed meanwhile
                    }
                }, nanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closed) {
                return CompletableFuture.completedFuture(null); // the client closed meanwhile
            }
        }
        // the JDK's delayer drops the timer of a future completed (here: cancelled) before its timeout
        CompletableFuture<Void> due = new CompletableFuture<>();
        due.completeOnTimeout(null, nanos, TimeUnit.NANOSECONDS).thenRunAsync(task, client.asyncExecutor());
        return due;
    }
}

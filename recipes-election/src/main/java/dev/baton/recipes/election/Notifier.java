package dev.baton.recipes.election;

import dev.baton.framework.SerialQueue;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;

/**
 * Delivers a recipe's listener calls one at a time, in the order they were queued, on an
 * executor (a {@link SerialQueue} drained there).
 *
 * <p>Queuing and running are split so that a recipe can queue calls in the same critical section
 * as the state change they report (keeping their order equal to the order of the changes) and
 * run them only after leaving it: {@link #add} never runs anything, {@link #flush} does, and is
 * called without locks. A call that throws is logged with its stack trace; later ones still run.
 */
final class Notifier {
    private final Executor executor;
    private final SerialQueue queue;

    /**
     * @param executor where calls run; several threads are fine, calls still run one at a time
     * @param owner names the recipe in log lines
     */
    public Notifier(Executor executor, String owner) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.queue = new SerialQueue(owner);
    }

    /** Queues a call; runs nothing (safe inside the recipe's lock). */
    public void add(Runnable call) {
        queue.add(call);
    }

    /**
     * Starts running what is queued, unless that is already happening. Call without locks held.
     * On a thread of the executor's own pool (a reply completing on the client's async executor)
     * the calls run right here: it is already the listeners' executor, and a hand-off to another
     * of its threads would only add latency to every grant.
     */
    public void flush() {
        if (!queue.claim()) {
            return;
        }
        if (executor instanceof ForkJoinPool pool && ForkJoinTask.getPool() == pool) {
            queue.drain();
            return;
        }
        try {
            executor.execute(queue::drain);
        } catch (RejectedExecutionException e) {
            // the executor is shut down (its client closed): deliver here rather than drop
            queue.drain();
        }
    }

    /** Completes once every call queued before it has run (at once if nothing is queued or running). */
    public CompletableFuture<Void> barrier() {
        if (queue.isIdle()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> reached = new CompletableFuture<>();
        add(() -> reached.complete(null));
        flush();
        return reached;
    }

    /** Whether the calling thread is running one of this notifier's calls right now. */
    public boolean isDelivering() {
        return queue.isDraining();
    }
}

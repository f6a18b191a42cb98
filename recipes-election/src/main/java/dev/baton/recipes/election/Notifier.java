package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.SerialQueue;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * Delivers a recipe's listener calls one at a time, in the order they were queued, on an
 * executor (a {@link SerialQueue} drained there).
 *
 * <p>Queuing and running are split so that a recipe can queue calls in the same critical section
 * as the state change they report (keeping their order equal to the order of the changes) and
 * run them only after leaving it: {@link #add} never runs anything, {@link #flush} does, and is
 * called without locks. A call that throws is logged with its stack trace; later ones still run.
 *
 * <p>An executor that refuses the calls while the client is open (a full bounded pool) gets them
 * again later, in order ({@link SerialQueue#runOn}). Once the client is closed, or the executor is
 * shut down, the calls run on the thread that flushes them instead of being dropped: a closing
 * recipe still tells its listeners how it ended, and {@link #barrier} still completes.
 */
final class Notifier {
    private final Executor executor;
    private final BatonClient client;
    private final SerialQueue queue;

    /**
     * @param executor where calls run; several threads are fine, calls still run one at a time
     * @param client whose closing ends the retries when the executor refuses
     * @param owner names the recipe in log lines
     */
    public Notifier(Executor executor, BatonClient client, String owner) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.client = Objects.requireNonNull(client, "client");
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
        if (executor instanceof ForkJoinPool pool && ForkJoinTask.getPool() == pool) {
            if (queue.claim()) {
                queue.drain();
            }
            return;
        }
        queue.runOn(executor, client, SerialQueue::drain); // refused for good: deliver here rather than drop
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

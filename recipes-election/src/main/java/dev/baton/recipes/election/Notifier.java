package dev.baton.recipes.election;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a recipe's listener calls one at a time, in the order they were queued, on an
 * executor.
 *
 * <p>Queuing and running are split so that a recipe can queue calls in the same critical section
 * as the state change they report (keeping their order equal to the order of the changes) and
 * run them only after leaving it: {@link #add} never runs anything, {@link #flush} does, and is
 * called without locks. A call that throws is logged with its stack trace; later ones still run.
 */
final class Notifier {
    private static final Logger LOG = LoggerFactory.getLogger(Notifier.class);

    private final Executor executor;
    private final String owner;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean running;
    private volatile Thread runner;

    /**
     * @param executor where calls run; several threads are fine, calls still run one at a time
     * @param owner names the recipe in log lines
     */
    public Notifier(Executor executor, String owner) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.owner = owner;
    }

    /** Queues a call; runs nothing (safe inside the recipe's lock). */
    public void add(Runnable call) {
        synchronized (queue) {
            queue.add(call);
        }
    }

    /**
     * Starts running what is queued, unless that is already happening. Call without locks held.
     * On a thread of the executor's own pool (a reply completing on the client's async executor)
     * the calls run right here: it is already the listeners' executor, and a hand-off to another
     * of its threads would only add latency to every grant.
     */
    public void flush() {
        synchronized (queue) {
            if (running || queue.isEmpty()) {
                return;
            }
            running = true;
        }
        if (executor instanceof ForkJoinPool pool && ForkJoinTask.getPool() == pool) {
            drain();
            return;
        }
        try {
            executor.execute(this::drain);
        } catch (RejectedExecutionException e) {
            // the executor is shut down (its client closed): deliver here rather than drop
            drain();
        }
    }

    /** Completes once every call queued before it has run (at once if nothing is queued or running). */
    public CompletableFuture<Void> barrier() {
        synchronized (queue) {
            if (!running && queue.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
        }
        CompletableFuture<Void> reached = new CompletableFuture<>();
        add(() -> reached.complete(null));
        flush();
        return reached;
    }

    /** Whether the calling thread is running one of this notifier's calls right now. */
    public boolean isDelivering() {
        return runner == Thread.currentThread();
    }

    private void drain() {
        runner = Thread.currentThread();
        try {
            while (true) {
                Runnable next;
                synchronized (queue) {
                    next = queue.poll();
                    if (next == null) {
                        running = false;
                        return;
                    }
                }
                try {
                    next.run();
                } catch (RuntimeException | Error e) {
                    LOG.error("a listener of {} threw; later calls still run", owner, e);
                }
            }
        } finally {
            runner = null;
        }
    }
}

package dev.baton.framework;

import java.util.ArrayDeque;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls run one at a time, in the order they were queued: the one drain loop behind the client's
 * listener delivery and the recipes' notifiers. It does not choose a thread: whoever {@link #claim}s a
 * non-empty idle queue runs {@link #drain()} (on an executor, or in place), and until that drain ends
 * nobody else can claim it, so calls never overlap even on a pool of many threads.
 *
 * <p>Guarantees and caveats: a call that throws is logged with its stack trace, and later calls still
 * run. A call queued while a drain runs is run by that drain. A claimer that cannot run the drain (its
 * executor refused it) must {@link #abandon()} it, or the queue stays claimed for good.
 *
 * <pre>{@code
 * queue.add(() -> listener.changed(state));
 * if (queue.claim()) {
 *     executor.execute(queue::drain);
 * }
 * }</pre>
 */
public final class SerialQueue {
    private static final Logger LOG = LoggerFactory.getLogger(SerialQueue.class);

    private final String owner;
    private final ArrayDeque<Runnable> calls = new ArrayDeque<>();
    private boolean draining;
    private volatile Thread runner;

    /**
     * An empty queue.
     *
     * @param owner names who queues the calls, in log lines ("leader latch /jobs/leader")
     */
    public SerialQueue(String owner) {
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    /**
     * Queues a call; runs nothing (safe inside the caller's own lock).
     *
     * @param call what to run
     */
    public void add(Runnable call) {
        Objects.requireNonNull(call, "call");
        synchronized (calls) {
            calls.add(call);
        }
    }

    /**
     * Claims the next drain: true if calls are queued and no drain is claimed yet, and the caller must
     * then see to it that {@link #drain()} runs (or {@link #abandon()} it).
     *
     * @return whether the caller now owns the drain
     */
    public boolean claim() {
        synchronized (calls) {
            if (draining || calls.isEmpty()) {
                return false;
            }
            draining = true;
            return true;
        }
    }

    /** Gives up a claimed drain that cannot run (the executor refused it): the queued calls are dropped. */
    public void abandon() {
        synchronized (calls) {
            calls.clear();
            draining = false;
        }
    }

    /** Runs the queued calls one by one until the queue is empty, then releases the claim. For the claimer. */
    public void drain() {
        runner = Thread.currentThread();
        try {
            while (true) {
                Runnable next;
                synchronized (calls) {
                    next = calls.poll();
                    if (next == null) {
                        draining = false;
                        return;
                    }
                }
                try {
                    next.run();
                } catch (RuntimeException | Error e) {
                    LOG.error("a call of {} threw; later calls still run", owner, e);
                }
            }
        } finally {
            runner = null;
        }
    }

    /** {@return whether nothing is queued and no drain is claimed} */
    public boolean isIdle() {
        synchronized (calls) {
            return !draining && calls.isEmpty();
        }
    }

    /** {@return whether the calling thread is running one of the queue's calls right now} */
    public boolean isDraining() {
        return runner == Thread.currentThread();
    }
}

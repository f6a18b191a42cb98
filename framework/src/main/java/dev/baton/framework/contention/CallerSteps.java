package dev.baton.framework.contention;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor of a blocking acquisition's steps: the thread that waits for the acquisition runs
 * them itself. A reply or watch event only queues the next step and wakes that thread (which is
 * all that happens on ZooKeeper's event thread), so each round trip costs one thread wake-up, as
 * with ZooKeeper's own blocking calls, while the wait keeps its deadline and stays interruptible.
 *
 * <p>Once the caller stops waiting ({@link #close}), steps still queued and any that arrive later
 * (the late reply of a create to give back, say) run on {@code afterwards}, which must be serial.
 */
final class CallerSteps implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(CallerSteps.class);

    private final Thread caller = Thread.currentThread();
    private final Executor afterwards;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean closed;

    CallerSteps(Executor afterwards) {
        this.afterwards = afterwards;
    }

    @Override
    public void execute(Runnable step) {
        synchronized (this) {
            if (!closed) {
                queue.add(step);
                LockSupport.unpark(caller);
                return;
            }
        }
        afterwards.execute(step);
    }

    /**
     * Runs steps on the calling thread (the one that made this) until {@code done} says so.
     *
     * @param deadline {@link System#nanoTime()} to give up at, or null for none
     * @return false if the deadline passed first
     */
    boolean runUntil(BooleanSupplier done, Long deadline) throws InterruptedException {
        while (true) {
            Runnable next;
            synchronized (this) {
                next = queue.poll();
            }
            if (next != null) {
                try {
                    next.run();
                } catch (RuntimeException e) {
                    LOG.error("a step of an acquisition threw; later ones still run", e);
                }
                continue;
            }
            if (done.getAsBoolean()) {
                return true;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (deadline == null) {
                LockSupport.park(this);
            } else {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                LockSupport.parkNanos(this, left);
            }
        }
    }

    /** The caller stops running steps: what is queued, and whatever comes later, goes to {@code afterwards}. */
    void close() {
        List<Runnable> left;
        synchronized (this) {
            closed = true;
            left = new ArrayList<>(queue);
            queue.clear();
        }
        left.forEach(afterwards::execute);
    }
}

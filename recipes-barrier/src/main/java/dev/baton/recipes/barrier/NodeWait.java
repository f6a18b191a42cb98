package dev.baton.recipes.barrier;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionLossException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateListener;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * Blocks until a node's state satisfies a condition, or a deadline passes: the one waiting loop of
 * the barrier recipes.
 *
 * <p>Each round reads the node with a watch, tests the condition, and sleeps until something may
 * have changed — a watch event, or a connection state change (after a session expiry the watch is
 * gone, so a reconnect must wake the loop to read again). It never trusts a wake-up: the condition
 * is always tested against a fresh read, so spurious wake-ups are harmless.
 */
final class NodeWait {
    /** No deadline. */
    public static final long FOREVER = Long.MAX_VALUE;
    /** How often a sleeping wait looks at its deadline again. */
    private static final long DEADLINE_RECHECK_MILLIS = 100;

    /** Reads what it needs, leaving {@code watcher} on each node it read, and says whether the wait is over. */
    @FunctionalInterface
    public interface Check {
        boolean test(Watcher watcher) throws InterruptedException;
    }

    private final BatonClient client;
    private final Object monitor = new Object();
    private long signals;

    private NodeWait(BatonClient client) {
        this.client = client;
    }

    /**
     * Waits until {@code condition} holds for the stat of {@code path} (null when the node does not
     * exist).
     *
     * @param deadlineNanos a {@link System#nanoTime()} deadline, or {@link #FOREVER}
     * @return true when the condition held, false when the deadline passed first
     */
    public static boolean until(BatonClient client, String path, Predicate<Stat> condition, long deadlineNanos)
        throws InterruptedException {
        return until(client, path, condition, () -> deadlineNanos);
    }

    /** As {@link #until(BatonClient, String, Predicate, long)}, with a deadline that may move (read each round). */
    public static boolean until(BatonClient client, String path, Predicate<Stat> condition, LongSupplier deadlineNanos)
        throws InterruptedException {
        return new NodeWait(client).run(w -> condition.test(client.checkExists().usingWatcher(w).forPath(path)), deadlineNanos);
    }

    /** Waits until {@code check} says so; it runs again whenever a node it watched changes or the client reconnects. */
    public static boolean until(BatonClient client, Check check, long deadlineNanos) throws InterruptedException {
        return new NodeWait(client).run(check, () -> deadlineNanos);
    }

    /** As {@link #until(BatonClient, Check, long)}, with a deadline that may move (read each round). */
    public static boolean until(BatonClient client, Check check, LongSupplier deadlineNanos) throws InterruptedException {
        return new NodeWait(client).run(check, deadlineNanos);
    }

    /** A deadline {@code timeoutNanos} from now, or {@link #FOREVER} for a negative timeout. */
    public static long deadline(long timeoutNanos) {
        return timeoutNanos < 0 ? FOREVER : System.nanoTime() + timeoutNanos;
    }

    private boolean run(Check check, LongSupplier deadline) throws InterruptedException {
        Watcher watcher = event -> signal();
        ConnectionStateListener listener = (c, state) -> {
            if (state == ConnectionState.RECONNECTED || state == ConnectionState.CONNECTED) {
                signal();
            }
        };
        client.addConnectionStateListener(listener);
        try {
            while (true) {
                long seen;
                synchronized (monitor) {
                    seen = signals;
                }
                try {
                    if (check.test(watcher)) {
                        return true;
                    }
                } catch (ConnectionLossException | SessionExpiredException e) {
                    // no connection for a while, or the session ended and the client is building a
                    // new one: keep waiting; the reconnect (same or new session) signals us
                }
                if (!sleep(seen, deadline)) {
                    return false;
                }
            }
        } finally {
            client.removeConnectionStateListener(listener);
        }
    }

    private void signal() {
        synchronized (monitor) {
            signals++;
            monitor.notifyAll();
        }
    }

    /**
     * Sleeps until a signal newer than {@code seen}; false if the deadline passed first. The
     * deadline is read again at least every {@link #DEADLINE_RECHECK_MILLIS}, because another
     * thread may move it closer (a second thread entering one barrier with a shorter timeout).
     */
    private boolean sleep(long seen, LongSupplier deadlines) throws InterruptedException {
        synchronized (monitor) {
            while (signals == seen) {
                long deadline = deadlines.getAsLong();
                long slice = DEADLINE_RECHECK_MILLIS;
                if (deadline != FOREVER) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    slice = Math.min(slice, Math.max(1, left / 1_000_000));
                }
                monitor.wait(slice);
            }
            return true;
        }
    }
}

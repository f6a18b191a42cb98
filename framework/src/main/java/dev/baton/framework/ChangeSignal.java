package dev.baton.framework;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * "Something may have changed": the one primitive behind every recipe that waits until a watched
 * condition holds (a barrier node, a queue with room or items, a required service). It counts
 * generations; a watch event, a (re)connection (a session expiry drops every watch, so a waiter
 * must look again) or a recipe's own {@link #bump()} starts the next one.
 *
 * <p>The algorithm, in {@link #awaitCondition}: remember the generation, look (reading with this
 * signal as the watcher), and if the condition does not hold yet, wait for a newer generation or the
 * deadline. Because the generation is taken before looking, no change between the look and the wait
 * is lost; because every round looks again, a spurious or coalesced wake-up is harmless. There is no
 * polling: a round runs only when something may have changed.
 *
 * <p>Guarantees and caveats: connection trouble during a look ({@link Failures#isConnectionTrouble})
 * does not end the wait: the reconnect wakes it to look again. Registered as a connection listener
 * ({@code client.addConnectionStateListener(signal)}) for that; {@link #awaitCondition} does it for
 * the duration of its wait. A closed client never reconnects, and its watches never fire again: so
 * the signal is also a {@link ClientClosingListener}, and the client's {@code close()} starts a new
 * generation, which wakes every waiter to see that the client is closed. {@link #awaitCondition}
 * then ends with {@link ClientClosedException} (from the look's own request, or from the wait
 * itself when the look did not hold), whether or not the wait has a deadline; a loop of its own
 * around {@link #awaitChange} looks again, and a look that reads through the closed client fails
 * the same way.
 * A wait runs through {@link Blocking#managed}: a caller's continuation on the client's fork-join
 * pool that waits here makes the pool lend a spare thread meanwhile.
 *
 * <pre>{@code
 * boolean gone = ChangeSignal.awaitCondition(client,
 *     watcher -> client.checkExists().usingWatcher(watcher).forPath(path) == null, Deadline.after(timeout));
 * }</pre>
 */
public final class ChangeSignal implements Watcher, ClientClosingListener {
    /**
     * How often a wait looks at a deadline supplier again: another thread may move the deadline
     * closer (a second thread entering one barrier with a shorter timeout).
     */
    private static final long DEADLINE_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The operation a closed client refuses, when the wait (not a look's request) sees the close. */
    private static final String WAIT = "wait for a change";

    /** A look at the condition: reads what it needs, leaving {@code watcher} on what it read. */
    @FunctionalInterface
    public interface Check {
        /**
         * Looks once.
         *
         * @param watcher the watcher to leave on every node read
         * @return whether the wait is over
         * @throws InterruptedException if the look is interrupted
         */
        boolean test(Watcher watcher) throws InterruptedException;
    }

    /**
     * A lock and a condition, not this object's monitor: a virtual thread that waits here (for a
     * watch event, in effect for the servers) must not pin its carrier thread, as
     * {@code Object.wait} does on Java 21 to 23.
     */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long generation;

    /** A signal at generation zero. */
    public ChangeSignal() {
    }

    /**
     * {@return the current generation: take it before looking, and wait for a newer one}
     */
    public long generation() {
        lock.lock();
        try {
            return generation;
        } finally {
            lock.unlock();
        }
    }

    /** Starts a new generation and wakes every waiter. */
    public void bump() {
        lock.lock();
        try {
            generation++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** {@inheritDoc} Any watch event may be a change. */
    @Override
    public void process(WatchedEvent event) {
        bump();
    }

    /**
     * {@inheritDoc} The client is closing: its waiters must wake to see it, as no watch event or
     * reconnect will come any more.
     */
    @Override
    public void clientClosing() {
        bump();
    }

    /** {@inheritDoc} A (re)connection may follow a session expiry that dropped the watches. */
    @Override
    public void stateChanged(BatonClient client, ConnectionState newState) {
        if (newState.isConnected()) {
            bump();
        }
    }

    /**
     * Waits until the generation differs from {@code seen}, or {@code deadline} passes.
     *
     * @param seen the generation taken before the last look
     * @param deadline until when
     * @return true on a newer generation, false when the deadline passed first
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean awaitChange(long seen, Deadline deadline) throws InterruptedException {
        Objects.requireNonNull(deadline, "deadline");
        return awaitChange(seen, () -> deadline, false);
    }

    /**
     * As {@link #awaitChange(long, Deadline)}, with a deadline that may move while it waits (read again
     * at least every 100 ms).
     *
     * @param seen the generation taken before the last look
     * @param deadline until when, read each time it is needed
     * @return true on a newer generation, false when the deadline passed first
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean awaitChange(long seen, Supplier<Deadline> deadline) throws InterruptedException {
        Objects.requireNonNull(deadline, "deadline");
        return awaitChange(seen, deadline, true);
    }

    private boolean awaitChange(long seen, Supplier<Deadline> deadlines, boolean moving) throws InterruptedException {
        // managed: a caller's continuation on the client's fork-join pool that waits here makes the pool lend a thread
        return Blocking.managed(() -> parkUntilChanged(seen, deadlines, moving));
    }

    private boolean parkUntilChanged(long seen, Supplier<Deadline> deadlines, boolean moving) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (generation == seen) {
                Deadline deadline = deadlines.get();
                long left = deadline.remainingNanos();
                if (left <= 0) {
                    return false;
                }
                long slice = moving ? Math.min(left, DEADLINE_RECHECK_NANOS) : left;
                if (slice == Long.MAX_VALUE) {
                    changed.await();
                } else {
                    changed.awaitNanos(slice);
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until {@code holds} is true, for a condition this process makes true itself (a cache's
     * first load, say): whoever makes it true then {@linkplain #bump() bumps} this signal. It looks
     * again at every new generation, until {@code deadline}; the close of {@code client} wakes it too
     * (a listener registered for this wait alone, so many may wait on one signal), and a closed client
     * ends it with {@link ClientClosedException}: what it waits for comes through the client, which
     * does nothing more once closed.
     *
     * @param client the client whose close ends the wait
     * @param holds whether the wait is over; cheap, reads nothing remote
     * @param deadline until when
     * @param operation what the wait is, for the exception ({@code "wait for the first load of the cache"})
     * @param path the path it concerns, for the exception, or null
     * @return true when {@code holds} held, false when the deadline passed first
     * @throws ClientClosedException if the client is closed (before or while it waits) and {@code holds} does not hold
     * @throws InterruptedException if the calling thread is interrupted
     */
    public boolean awaitUnlessClosed(BatonClient client, BooleanSupplier holds, Deadline deadline, String operation, String path)
        throws InterruptedException {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(holds, "holds");
        Objects.requireNonNull(deadline, "deadline");
        ClientClosingListener wake = this::bump;   // one per wait: removing a listener removes all its registrations
        client.addConnectionStateListener(wake);
        try {
            while (true) {
                long seen = generation();
                if (holds.getAsBoolean()) {
                    return true;
                }
                if (client.isClosed()) {
                    throw new ClientClosedException(operation, path);
                }
                if (!awaitChange(seen, deadline)) {
                    return false;
                }
            }
        } finally {
            client.removeConnectionStateListener(wake);
        }
    }

    /**
     * Waits until {@code check} holds: it looks again whenever something it watched changed or the client
     * reconnected, until {@code deadline}.
     *
     * @param client the client the check reads through (its reconnects wake the wait)
     * @param check one look
     * @param deadline until when
     * @return true when the check held, false when the deadline passed first
     * @throws ClientClosedException if the client is closed (before or while it waits) and the check does not hold
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static boolean awaitCondition(BatonClient client, Check check, Deadline deadline) throws InterruptedException {
        Objects.requireNonNull(deadline, "deadline");
        return awaitCondition(client, check, () -> deadline, false);
    }

    /**
     * As {@link #awaitCondition(BatonClient, Check, Deadline)}, with a deadline that may move while it
     * waits.
     *
     * @param client the client the check reads through (its reconnects wake the wait)
     * @param check one look
     * @param deadline until when, read each time it is needed
     * @return true when the check held, false when the deadline passed first
     * @throws ClientClosedException if the client is closed (before or while it waits) and the check does not hold
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static boolean awaitCondition(BatonClient client, Check check, Supplier<Deadline> deadline) throws InterruptedException {
        return awaitCondition(client, check, deadline, true);
    }

    private static boolean awaitCondition(BatonClient client, Check check, Supplier<Deadline> deadline, boolean moving)
        throws InterruptedException {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(check, "check");
        ChangeSignal signal = new ChangeSignal();
        client.addConnectionStateListener(signal);
        try {
            while (true) {
                long seen = signal.generation();
                try {
                    if (check.test(signal)) {
                        return true;
                    }
                } catch (BatonException e) {
                    if (!Failures.isConnectionTrouble(e)) {
                        throw e;
                    }
                    // no connection for a while, or a new session being built: the reconnect wakes us
                }
                if (client.isClosed()) {
                    // no reconnect or watch event will wake us again (close() bumped the signal to get us here)
                    throw new ClientClosedException(WAIT, null);
                }
                if (!signal.awaitChange(seen, deadline, moving)) {
                    return false;
                }
            }
        } finally {
            client.removeConnectionStateListener(signal);
        }
    }
}

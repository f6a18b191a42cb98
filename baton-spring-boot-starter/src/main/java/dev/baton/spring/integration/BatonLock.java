package dev.baton.spring.integration;

import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.LockLease;
import dev.baton.recipes.lock.LockOwnershipLostException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The {@link Lock} {@link BatonLockRegistry#obtain} returns: one key's {@link InterProcessMutex},
 * held per thread and re-entrant, as Spring Integration's lock registries' locks are, with the
 * hold's fencing token and loss signal within reach.
 *
 * <p>Each thread's first acquisition takes a {@link LockLease} of the mutex (its own place in
 * line, so threads of one process exclude each other as processes do); later acquisitions by the
 * same thread count up, and the last {@link #unlock()} gives the lease back. A thread that does
 * not hold the lock and calls {@code unlock()} gets an {@link IllegalMonitorStateException}.
 *
 * <p>Guarantees and caveats: the mutex's. While the holder's session lives, nobody else holds the
 * lock; when the hold is lost (session expired, node deleted, or under the STANDARD error policy a
 * suspended connection) {@link #isValid()} turns false, {@link #onLost} callbacks run, and the
 * next {@code lock()} by the same thread or its last {@code unlock()} throws
 * {@link LockOwnershipLostException}. Pass {@link #fencingToken()} to what the lock protects so
 * that it can refuse a holder that was cut off without knowing.
 *
 * <pre>{@code
 * BatonLock lock = registry.obtain("invoices");
 * lock.lock();
 * try {
 *     ledger.settle(batch, lock.fencingToken());
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 */
public final class BatonLock implements Lock {
    /** A thread's hold: its lease, and how many times the thread acquired it (only that thread changes it). */
    private static final class Owned {
        final LockLease lease;
        int count = 1;

        Owned(LockLease lease) {
            this.lease = lease;
        }
    }

    private final String key;
    private final InterProcessMutex mutex;
    private final Map<Thread, Owned> owners = new ConcurrentHashMap<>();
    private volatile long lastUsedMillis = System.currentTimeMillis();

    BatonLock(String key, InterProcessMutex mutex) {
        this.key = key;
        this.mutex = mutex;
    }

    /** {@return the key this lock was obtained for} */
    public String key() {
        return key;
    }

    /** {@return the mutex behind this lock (its folder is {@code mutex().path()})} */
    public InterProcessMutex mutex() {
        return mutex;
    }

    /** Acquires, trying again after each interrupt (a {@code Lock}'s {@code lock()} is uninterruptible), then restores the interrupt. */
    @Override
    public void lock() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    acquire(null);
                    return;
                } catch (InterruptedException e) {
                    // the interrupted attempt left nothing behind; the next one joins the back of the line
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquire(null);
    }

    /** Takes the lock if it is free now (one round of requests to the servers). */
    @Override
    public boolean tryLock() {
        try {
            return acquire(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Waits up to {@code time}; one too long to count in nanoseconds (toNanos saturates) waits as long as it takes. */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        // Duration.of(Long.MAX_VALUE, MINUTES) overflows; Lock's callers pass that to mean "no limit"
        return acquire(time <= 0 ? Duration.ZERO : Duration.ofNanos(unit.toNanos(time)));
    }

    /**
     * Releases once; the thread's last release gives the mutex back.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     * @throws LockOwnershipLostException if the hold was lost before this release (the lock has
     *     still been released)
     */
    @Override
    public void unlock() {
        Thread me = Thread.currentThread();
        Owned mine = owners.get(me);
        if (mine == null) {
            throw new IllegalMonitorStateException("You do not own the lock for key '" + key + "': thread '"
                + me.getName() + "' never acquired it or already released it as many times as it acquired it");
        }
        touch();
        if (--mine.count > 0) {
            return;
        }
        owners.remove(me);
        mine.lease.release();
    }

    /** Not supported: a condition would have to wake threads of other processes. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("newCondition() is not supported by the Baton lock for key '" + key
            + "': a Condition would have to wake threads of other processes");
    }

    /** {@return whether the calling thread holds the lock} */
    public boolean isHeldByCurrentThread() {
        return owners.containsKey(Thread.currentThread());
    }

    /** {@return whether any thread of this process holds the lock through this object} */
    public boolean isLocked() {
        return !owners.isEmpty();
    }

    /**
     * {@return the fencing token of the calling thread's hold: the creation zxid of its node, larger than
     * every earlier holder's}
     *
     * @throws IllegalStateException if the calling thread does not hold the lock
     */
    public long fencingToken() {
        return currentLease().fencingToken();
    }

    /**
     * {@return whether the calling thread's hold can still be trusted (session alive, node in place,
     * connection not a loss under the client's error policy)}; false if it holds nothing
     */
    public boolean isValid() {
        Owned mine = owners.get(Thread.currentThread());
        return mine != null && mine.lease.isValid();
    }

    /**
     * Runs {@code callback} once, on the client's event executor, if the calling thread's hold is
     * lost (at once if it already is); not after the hold is released.
     *
     * @param callback what to run: keep it short, do not block in it
     * @throws IllegalStateException if the calling thread does not hold the lock
     */
    public void onLost(Runnable callback) {
        currentLease().onLost(callback);
    }

    /**
     * {@return the lease behind the calling thread's hold: its token, validity, loss callbacks and
     * {@link LockLease#guard transaction guard}} Do not release it: {@link #unlock()} does.
     *
     * @throws IllegalStateException if the calling thread does not hold the lock
     */
    public LockLease currentLease() {
        Owned mine = owners.get(Thread.currentThread());
        if (mine == null) {
            throw new IllegalStateException("thread '" + Thread.currentThread().getName()
                + "' does not hold the lock for key '" + key + "', so it has no lease or fencing token");
        }
        return mine.lease;
    }

    /** When the lock was last acquired or released through this object ({@link System#currentTimeMillis()}). */
    long lastUsedMillis() {
        return lastUsedMillis;
    }

    private void touch() {
        lastUsedMillis = System.currentTimeMillis();
    }

    /** One acquisition by the calling thread: re-entry counts up, a first one takes a lease. */
    private boolean acquire(Duration timeout) throws InterruptedException {
        touch();
        Thread me = Thread.currentThread();
        Owned mine = owners.get(me);
        if (mine != null) {
            if (!mine.lease.isValid()) {
                throw new LockOwnershipLostException("the lock for key '" + key + "' was lost while thread '"
                    + me.getName() + "' held it (" + mine.lease.lossReason().orElse("lost")
                    + "); unlock() it before locking it again");
            }
            mine.count++;
            return true;
        }
        LockLease lease = timeout == null ? mutex.acquireLease() : mutex.acquireLease(timeout);
        if (lease == null) {
            return false;
        }
        owners.put(me, new Owned(lease));
        touch();
        return true;
    }

    @Override
    public String toString() {
        return "BatonLock[" + key + " -> " + mutex + "]";
    }
}

package dev.baton.framework;

import java.time.Duration;
import java.util.concurrent.locks.Lock;

/**
 * A lock shared by processes through ZooKeeper. Implemented by every lock recipe, so one
 * mutual-exclusion contract holds for all of them.
 */
public interface InterProcessLock {
    /**
     * Waits until the lock is held.
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits (nothing is left
     *     behind)
     */
    void acquire() throws InterruptedException;

    /**
     * Waits up to {@code timeout} for the lock.
     *
     * @param timeout how long to wait at most
     * @return whether the lock is held; on false nothing of the attempt is left on the servers
     * @throws InterruptedException if the calling thread is interrupted while it waits (nothing is left
     *     behind)
     */
    boolean acquire(Duration timeout) throws InterruptedException;

    /** Releases the lock once (a re-entrant lock acquired n times needs n releases). */
    void release();

    /** {@return whether a thread of this process holds the lock through this object} */
    boolean isAcquiredInThisProcess();

    /**
     * {@return the fencing token of the current hold: the creation zxid of the holder's node, larger than
     * every earlier holder's} Pass it to downstream resources so they can reject a stale holder.
     *
     * @throws IllegalStateException if the lock is not held through this object
     */
    long fencingToken();

    /**
     * {@return a {@link Lock} view on the thread-bound API: {@code lock()} is {@link #acquire()} (it keeps
     * trying through interrupts, then restores the interrupt), {@code tryLock()} tries once
     * ({@code acquire(Duration.ZERO)}), {@code unlock()} is {@link #release()}}
     * {@code newCondition()} is not supported: a condition would have to wake threads of other
     * processes.
     */
    default Lock asLock() {
        return new LockView(this);
    }
}

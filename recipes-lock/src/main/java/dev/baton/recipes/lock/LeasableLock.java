package dev.baton.recipes.lock;

import dev.baton.framework.InterProcessLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Lock;

/**
 * An {@link InterProcessLock} that can also be held through a handle ({@link LockLease}),
 * acquired without parking a thread, and seen as a {@link Lock}. Every lock of this module is
 * one.
 *
 * <p>The thread-bound API ({@link #acquire()}, {@link #release()}) and leases coexist on one
 * object: each acquisition is a separate place in the lock's line, so a thread that holds the
 * lock and asks for a lease waits for itself.
 */
public sealed interface LeasableLock extends InterProcessLock permits HandleLock {
    /**
     * Waits until the lock is held and returns the hold as a handle any thread may release.
     *
     * @return the lease
     * @throws InterruptedException if the calling thread is interrupted while it waits (nothing is left
     *     behind)
     */
    LockLease acquireLease() throws InterruptedException;

    /**
     * Waits up to {@code timeout} for the lock. {@link Duration#ZERO} tries once: it succeeds if
     * the lock is free now.
     *
     * @param timeout how long to wait at most
     * @return the lease, or null on timeout (nothing of the attempt is left on the servers)
     * @throws InterruptedException if the calling thread is interrupted while it waits (nothing is left
     *     behind)
     */
    LockLease acquireLease(Duration timeout) throws InterruptedException;

    /**
     * Acquires without blocking a thread: the future completes (on the client's async executor)
     * when the lock is held. Cancelling it abandons the attempt and deletes its node.
     *
     * @return the lease, once the lock is held
     */
    CompletableFuture<LockLease> acquireAsync();

    /**
     * {@link #acquireAsync()} with a timeout: completes with null when it passes first.
     *
     * @param timeout how long to wait at most
     * @return the lease, or null on timeout
     */
    CompletableFuture<LockLease> acquireAsync(Duration timeout);

    /**
     * A {@link Lock} view on the thread-bound API: {@code lock()} is {@link #acquire()} (it keeps
     * trying through interrupts, then restores the interrupt), {@code tryLock()} tries once,
     * {@code unlock()} is {@link #release()}. {@code newCondition()} is not supported.
     */
    @Override
    default Lock asLock() {
        return InterProcessLock.super.asLock();
    }

    /** {@return whether the current thread holds the lock through the thread-bound API of this object} */
    boolean isHeldByCurrentThread();
}

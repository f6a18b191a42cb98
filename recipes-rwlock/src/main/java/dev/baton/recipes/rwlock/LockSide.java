package dev.baton.recipes.rwlock;

import dev.baton.framework.InterProcessLock;
import dev.baton.framework.contention.Acquisitions;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.contention.OwnershipLostException;
import java.time.Duration;
import java.util.Comparator;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;

/**
 * What the read lock and the write lock share: given a way to acquire a {@link Hold}, leases,
 * asynchronous acquisition and the thread-bound, re-entrant {@link InterProcessLock} API.
 *
 * <p>A thread's holds are counted per thread: its first acquisition takes a lease, its last
 * release returns it. A lost hold is loud: re-entering it throws, and every release of it throws
 * {@link OwnershipLostException} (the last one still deletes the node).
 *
 * @param <L> the lease type of this side
 */
abstract sealed class LockSide<L extends Grant> implements InterProcessLock
    permits InterProcessReadWriteLock.ReadLock, InterProcessReadWriteLock.WriteLock {

    /** A thread's hold: its lease and how many times the thread acquired it (only that thread touches it). */
    private final class Owned {
        final L lease;
        int count = 1;

        Owned(L lease) {
            this.lease = lease;
        }
    }

    private final String description;
    private final ConcurrentMap<Thread, Owned> owners = new ConcurrentHashMap<>();
    private final Set<L> leases = ConcurrentHashMap.newKeySet();

    LockSide(String description) {
        this.description = description;
    }

    /**
     * Starts one acquisition for the calling thread: completes with the hold, or null when
     * {@code timeout} passes first (null: no limit; zero: look once). Cancelling it leaves nothing.
     */
    abstract CompletableFuture<Hold> acquireHold(Duration timeout);

    /**
     * {@link #acquireHold}, waited for on the calling thread: the hold, or null on timeout (an
     * interrupt leaves nothing behind and is rethrown). Sides that wait in line override it to let
     * the engine run the attempt on the waiting thread itself (fewer thread hand-offs).
     */
    Hold acquireHoldBlocking(Duration timeout) throws InterruptedException {
        return Acquisitions.await(acquireHold(timeout), Hold::delete);
    }

    /** Makes the lease for a hold of this side. */
    abstract L newLease(Hold hold, String what, Consumer<Grant> onRelease);

    /** Called on the calling thread before it blocks for this side; refuses what would never be granted. */
    abstract void beforeBlocking();

    @Override
    public final void acquire() throws InterruptedException {
        acquireForThread(null);
    }

    @Override
    public final boolean acquire(Duration timeout) throws InterruptedException {
        return acquireForThread(checkTimeout(timeout));
    }

    @Override
    public final void release() {
        Thread me = Thread.currentThread();
        Owned mine = owners.get(me);
        if (mine == null) {
            throw new IllegalMonitorStateException("thread '" + me.getName() + "' does not hold the " + description
                + (isAcquiredInThisProcess()
                    ? " (another thread or a lease of this object holds it; release it there)"
                    : " (released as many times as it was acquired, or never acquired)"));
        }
        if (--mine.count > 0) {
            if (!mine.lease.isValid()) {
                throw new OwnershipLostException("the " + description + " was lost while thread '" + me.getName()
                    + "' held it (" + mine.lease.lossReason().orElse("lost") + "); " + mine.count
                    + " more release(s) end the hold");
            }
            return;
        }
        owners.remove(me);
        mine.lease.release();
    }

    /** Whether a thread or a lease of this object holds this side of the lock. */
    @Override
    public final boolean isAcquiredInThisProcess() {
        return !leases.isEmpty();
    }

    /** Whether the calling thread holds this side through the thread-bound API of this object. */
    public final boolean isHeldByCurrentThread() {
        return owners.containsKey(Thread.currentThread());
    }

    /**
     * The token of the current thread's hold; if the thread holds none, of the newest hold of this
     * side through this object (a lease, or another thread's).
     */
    @Override
    public final long fencingToken() {
        Owned mine = owners.get(Thread.currentThread());
        if (mine != null) {
            return mine.lease.fencingToken();
        }
        return leases.stream().mapToLong(Grant::fencingToken).max()
            .orElseThrow(() -> new IllegalStateException("the " + description + " is not held through this object,"
                + " so it has no fencing token"));
    }

    /** Waits until this side is held and returns the hold as a handle any thread may release. */
    public final L acquireLease() throws InterruptedException {
        beforeBlocking();
        return leaseOrNull(acquireHoldBlocking(null));
    }

    /**
     * Waits up to {@code timeout} ({@link Duration#ZERO}: look once).
     *
     * @return the lease, or null on timeout (nothing of the attempt is left on the servers)
     */
    public final L acquireLease(Duration timeout) throws InterruptedException {
        beforeBlocking();
        return leaseOrNull(acquireHoldBlocking(checkTimeout(timeout)));
    }

    private L leaseOrNull(Hold hold) {
        return hold == null ? null : lease(hold);
    }

    /**
     * Acquires without blocking a thread: the future completes (on the client's async executor)
     * when this side is held. Cancelling it abandons the attempt and deletes its node.
     */
    public final CompletableFuture<L> acquireAsync() {
        return leaseOf(acquireHold(null));
    }

    /** {@link #acquireAsync()} with a timeout: completes with null when it passes first. */
    public final CompletableFuture<L> acquireAsync(Duration timeout) {
        return leaseOf(acquireHold(checkTimeout(timeout)));
    }

    /** The lease of the calling thread's thread-bound hold, or null. */
    final L currentThreadLease() {
        Owned mine = owners.get(Thread.currentThread());
        return mine == null ? null : mine.lease;
    }

    /** Leases of this side for the holds {@code holds} completes with (cancelling it gives them back). */
    final CompletableFuture<L> leaseOf(CompletableFuture<? extends Hold> holds) {
        return Acquisitions.map(holds, this::lease, Hold::delete, leases::remove);
    }

    private L lease(Hold hold) {
        L lease = newLease(hold, description + " lease", grant -> leases.remove(grant));
        leases.add(lease);
        return lease;
    }

    private boolean acquireForThread(Duration timeout) throws InterruptedException {
        Thread me = Thread.currentThread();
        Owned mine = owners.get(me);
        if (mine != null) {
            if (!mine.lease.isValid()) {
                throw new OwnershipLostException("the " + description + " was lost while thread '" + me.getName()
                    + "' held it (" + mine.lease.lossReason().orElse("lost") + "); release it before acquiring it again");
            }
            mine.count++;
            return true;
        }
        L lease = timeout == null ? acquireLease() : acquireLease(timeout);
        if (lease == null) {
            return false;
        }
        owners.put(me, new Owned(lease));
        return true;
    }

    private static Duration checkTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        return timeout;
    }

    @Override
    public String toString() {
        return description + leases.stream().max(Comparator.comparingLong(Grant::fencingToken))
            .map(l -> " held, token " + l.fencingToken()).orElse(" not held");
    }
}

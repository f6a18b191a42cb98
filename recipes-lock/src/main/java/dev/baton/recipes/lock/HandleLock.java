package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Acquisitions;
import dev.baton.framework.contention.Hold;
import java.time.Duration;
import java.util.Comparator;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.Lock;

/**
 * The part every lock of this module shares: given a way to acquire a {@link Hold}
 * ({@link #acquireHold}), it provides leases, asynchronous acquisition, the thread-bound
 * (optionally re-entrant) {@link dev.baton.framework.InterProcessLock} API and the
 * {@link Lock} view.
 *
 * <p>A thread's holds are counted per thread; the thread's first acquisition takes a lease, its
 * last release returns it. A lost hold is loud: re-entering it throws, and every release of it
 * throws {@link LockOwnershipLostException} (the last one still deletes the node).
 */
abstract sealed class HandleLock implements LeasableLock
    permits InterProcessMutex, InterProcessSemaphoreMutex, InterProcessMultiLock {

    /** A thread's hold: its lease and how many times the thread acquired it (only that thread touches it). */
    private static final class Owned {
        final LockLease lease;
        int count = 1;

        Owned(LockLease lease) {
            this.lease = lease;
        }
    }

    private final String description;
    private final boolean reentrant;
    private final ConcurrentMap<Thread, Owned> owners = new ConcurrentHashMap<>();
    private final Set<LockLease> leases = ConcurrentHashMap.newKeySet();

    HandleLock(String description, boolean reentrant) {
        this.description = description;
        this.reentrant = reentrant;
    }

    /**
     * Starts one acquisition: completes with the hold, or null when {@code timeout} passes first
     * (null timeout: no limit; zero: look once). Cancelling it abandons the attempt, leaving nothing.
     */
    abstract CompletableFuture<Hold> acquireHold(Duration timeout);

    /**
     * {@link #acquireHold}, waited for on the calling thread: the hold, or null on timeout. An
     * interrupt leaves nothing behind and is rethrown. Locks whose engine can run the attempt on
     * the waiting thread itself override it (fewer thread hand-offs).
     */
    Hold acquireHoldBlocking(Duration timeout) throws InterruptedException {
        return Acquisitions.await(acquireHold(timeout), Hold::delete);
    }

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
            throw new IllegalMonitorStateException("thread '" + me.getName() + "' does not hold " + description
                + (isAcquiredInThisProcess()
                    ? " (another thread or a lease of this object holds it; release it there)"
                    : " (released as many times as it was acquired, or never acquired)"));
        }
        if (--mine.count > 0) {
            if (!mine.lease.isValid()) {
                throw new LockOwnershipLostException(description + " was lost while thread '" + me.getName()
                    + "' held it (" + mine.lease.lossReason().orElse("lost") + "); " + mine.count
                    + " more release(s) end the hold");
            }
            return;
        }
        owners.remove(me);
        mine.lease.release();
    }

    @Override
    public final boolean isAcquiredInThisProcess() {
        return !leases.isEmpty();
    }

    @Override
    public final boolean isHeldByCurrentThread() {
        return owners.containsKey(Thread.currentThread());
    }

    /**
     * The token of the current thread's hold; if the thread holds none, of the newest hold
     * through this object (a lease, or another thread's).
     */
    @Override
    public final long fencingToken() {
        Owned mine = owners.get(Thread.currentThread());
        if (mine != null) {
            return mine.lease.fencingToken();
        }
        return leases.stream().mapToLong(LockLease::fencingToken).max()
            .orElseThrow(() -> new IllegalStateException(description + " is not held through this object, so it has no fencing token"));
    }

    @Override
    public final LockLease acquireLease() throws InterruptedException {
        return leaseOrNull(acquireHoldBlocking(null));
    }

    @Override
    public final LockLease acquireLease(Duration timeout) throws InterruptedException {
        return leaseOrNull(acquireHoldBlocking(checkTimeout(timeout)));
    }

    private LockLease leaseOrNull(Hold hold) {
        return hold == null ? null : lease(hold);
    }

    @Override
    public final CompletableFuture<LockLease> acquireAsync() {
        return start(null);
    }

    @Override
    public final CompletableFuture<LockLease> acquireAsync(Duration timeout) {
        return start(checkTimeout(timeout));
    }


    /** What this lock is, for messages: its kind and path(s). */
    final String description() {
        return description;
    }

    private CompletableFuture<LockLease> start(Duration timeout) {
        return Acquisitions.map(acquireHold(timeout), this::lease, Hold::delete, lease -> leases.remove(lease));
    }

    private LockLease lease(Hold hold) {
        LockLease lease = new LockLease(hold, "lease of " + description, leases::remove);
        leases.add(lease);
        return lease;
    }

    private boolean acquireForThread(Duration timeout) throws InterruptedException {
        Thread me = Thread.currentThread();
        Owned mine = owners.get(me);
        if (mine != null) {
            if (!reentrant) {
                throw new IllegalStateException(description + " is not re-entrant and thread '" + me.getName()
                    + "' already holds it: a second acquire would wait for itself");
            }
            if (!mine.lease.isValid()) {
                throw new LockOwnershipLostException(description + " was lost while thread '" + me.getName() + "' held it ("
                    + mine.lease.lossReason().orElse("lost") + "); release it before acquiring it again");
            }
            mine.count++;
            return true;
        }
        LockLease lease = timeout == null ? acquireLease() : acquireLease(timeout);
        if (lease == null) {
            return false;
        }
        owners.put(me, new Owned(lease));
        return true;
    }

    static Duration checkTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        return timeout;
    }

    /** The newest lease, for {@code toString}. */
    @Override
    public String toString() {
        return description + leases.stream().max(Comparator.comparingLong(LockLease::fencingToken))
            .map(l -> " held, token " + l.fencingToken()).orElse(" not held");
    }
}

package dev.baton.framework.contention;

import dev.baton.framework.Deadline;
import dev.baton.framework.Futures;
import dev.baton.framework.InterProcessLock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The part every lock recipe on the contention engine shares: given a way to acquire a
 * {@link Hold} ({@link #acquireHold}) and to wrap one in the recipe's {@link Grant}
 * ({@link #newLease}), it provides leases (handles any thread may release), asynchronous
 * acquisition, and the thread-bound {@link InterProcessLock} API, optionally re-entrant. The lock
 * module's locks and both sides of the read/write lock are built on it.
 *
 * <p>A thread's holds are counted per thread; the thread's first acquisition takes a lease, its
 * last release returns it. Leases and thread holds coexist on one object, each acquisition a
 * separate place in line. A lost hold is loud: re-entering it throws, and every release of it
 * throws the lease's {@link Grant#newLostException own kind} of {@link OwnershipLostException}
 * (the last release still deletes the node). A cancelled, timed-out or interrupted acquisition
 * leaves nothing behind. A hold that is already lost when it reaches the caller (the connection
 * dropped, or the session ended, as the line reached it) is never handed out: it is given back
 * and the acquisition goes on within its deadline, so a lease or a thread hold is valid when the
 * caller gets it (it may of course be lost at any moment after that, and says so).
 *
 * @param <L> the recipe's lease type
 */
public abstract class GrantingLock<L extends Grant> implements InterProcessLock {

    /** A thread's hold: its lease and how many times the thread acquired it (only that thread touches it). */
    private final class Owned {
        final L lease;
        int count = 1;

        Owned(L lease) {
            this.lease = lease;
        }
    }

    private final String description;
    private final String subject;
    private final boolean reentrant;
    private final ConcurrentMap<Thread, Owned> owners = new ConcurrentHashMap<>();
    private final Set<L> leases = ConcurrentHashMap.newKeySet();

    /**
     * @param description what the lock is, with its path(s) ("InterProcessMutex /locks/a"), for
     *     {@code toString} and the recipe's lease names
     * @param subject how messages name it ("InterProcessMutex /locks/a", "the read lock of /rw")
     * @param reentrant whether a thread that holds it may acquire it again (if not, that throws)
     */
    protected GrantingLock(String description, String subject, boolean reentrant) {
        this.description = description;
        this.subject = subject;
        this.reentrant = reentrant;
    }

    /**
     * Starts one acquisition: completes with the hold, or null when {@code deadline} passes first
     * ({@link Deadline#none()}: no limit; one already passed: look once). Cancelling it abandons the
     * attempt, leaving nothing.
     *
     * @param deadline when to give up
     * @return the hold, or null on timeout
     */
    protected abstract CompletableFuture<? extends Hold> acquireHold(Deadline deadline);

    /**
     * {@link #acquireHold}, waited for on the calling thread: the hold, or null on timeout. An
     * interrupt leaves nothing behind and is rethrown. Locks whose engine can run the attempt on
     * the waiting thread itself override it (fewer thread hand-offs).
     *
     * @param deadline when to give up
     * @return the hold, or null on timeout
     * @throws InterruptedException if the calling thread is interrupted while it waits (nothing is left
     *     behind)
     */
    protected Hold acquireHoldBlocking(Deadline deadline) throws InterruptedException {
        return Futures.awaitOrCancel(acquireHold(deadline), Hold::delete);
    }

    /**
     * Makes the recipe's lease for {@code hold}; {@code onRelease} must be passed on to the {@link Grant}.
     *
     * @param hold the hold the lease rests on
     * @param onRelease what the lock does when the lease is released
     * @return the recipe's lease
     */
    protected abstract L newLease(Hold hold, Consumer<Grant> onRelease);

    /**
     * Called on the calling thread before it blocks for a lease or a thread hold; refuses what
     * would never be granted (by throwing). Does nothing unless overridden.
     */
    protected void beforeBlocking() {
    }

    @Override
    public final void acquire() throws InterruptedException {
        acquireForThread(Deadline.none());
    }

    @Override
    public final boolean acquire(Duration timeout) throws InterruptedException {
        return acquireForThread(Deadline.afterNonNegative(timeout));
    }

    @Override
    public final void release() {
        Thread me = Thread.currentThread();
        Owned mine = owners.get(me);
        if (mine == null) {
            throw new IllegalMonitorStateException("thread '" + me.getName() + "' does not hold " + subject
                + (isAcquiredInThisProcess()
                    ? (" (another thread or a lease of this object holds it; release it there. A hold taken by acquireLease() or"
                        + " acquireAsync() is a handle that any thread may release)")
                    : " (released as many times as it was acquired, or never acquired)"));
        }
        if (--mine.count > 0) {
            if (!mine.lease.isValid()) {
                throw mine.lease.newLostException(subject + " was lost while thread '" + me.getName()
                    + "' held it (" + mine.lease.lossReason().orElse("lost") + "); " + mine.count
                    + " more release(s) end the hold");
            }
            return;
        }
        owners.remove(me);
        mine.lease.release();
    }

    /** Whether a thread or a lease of this object holds the lock. */
    @Override
    public final boolean isAcquiredInThisProcess() {
        return !leases.isEmpty();
    }

    /** {@return whether the calling thread holds the lock through the thread-bound API of this object} */
    public final boolean isHeldByCurrentThread() {
        return owners.containsKey(Thread.currentThread());
    }

    /**
     * Curator's name for {@link #isHeldByCurrentThread()}: whether the calling thread holds the
     * lock through {@link #acquire()} (a lease from {@link #acquireLease()} belongs to no thread).
     *
     * @return what {@link #isHeldByCurrentThread()} returns
     */
    public final boolean isOwnedByCurrentThread() {
        return isHeldByCurrentThread();
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
        return leases.stream().mapToLong(Grant::fencingToken).max()
            .orElseThrow(() -> new IllegalStateException(subject + " is not held through this object, so it has no fencing token"));
    }

    /**
     * Waits until the lock is held and returns the hold as a handle any thread may release.
     *
     * @return the lease
     * @throws InterruptedException if the calling thread is interrupted while it waits (nothing is left
     *     behind)
     */
    public final L acquireLease() throws InterruptedException {
        return leaseBlocking(Deadline.none());
    }

    /**
     * Waits up to {@code timeout} for the lock. {@link Duration#ZERO} tries once: it succeeds if
     * the lock is free now.
     *
     * @param timeout how long to wait at most
     * @return the lease, or null on timeout (nothing of the attempt is left on the servers)
     * @throws InterruptedException if the calling thread is interrupted while it waits (nothing is left
     *     behind)
     */
    public final L acquireLease(Duration timeout) throws InterruptedException {
        return leaseBlocking(Deadline.afterNonNegative(timeout));
    }

    /**
     * Acquires without blocking a thread: the future completes (on the client's async executor)
     * when the lock is held. Cancelling it abandons the attempt and deletes its node.
     *
     * @return the lease, once the lock is held
     */
    public final CompletableFuture<L> acquireAsync() {
        return leaseOf(validHold(Deadline.none()));
    }

    /**
     * {@link #acquireAsync()} with a timeout: completes with null when it passes first.
     *
     * @param timeout how long to wait at most
     * @return the lease, or null on timeout
     */
    public final CompletableFuture<L> acquireAsync(Duration timeout) {
        return leaseOf(validHold(Deadline.afterNonNegative(timeout)));
    }

    /** {@return what this lock is, with its path(s): the {@code description} it was made with} */
    protected final String description() {
        return description;
    }

    /** {@return the lease of the calling thread's thread-bound hold, or null} */
    protected final L currentThreadLease() {
        Owned mine = owners.get(Thread.currentThread());
        return mine == null ? null : mine.lease;
    }

    /**
     * Leases of this lock for the holds {@code holds} completes with (cancelling it gives them back).
     *
     * @param holds an acquisition's holds
     * @return the leases, as the holds arrive
     */
    protected final CompletableFuture<L> leaseOf(CompletableFuture<? extends Hold> holds) {
        return Futures.mapOrGiveBack(holds, this::lease, Hold::delete, leases::remove);
    }

    /**
     * Blocks for a hold and makes its lease. A hold already lost when it reaches the caller is
     * given back and never handed out: the attempt goes on, within the same deadline.
     */
    private L leaseBlocking(Deadline deadline) throws InterruptedException {
        beforeBlocking();
        while (true) {
            Hold hold = acquireHoldBlocking(deadline);
            if (hold == null) {
                return null;
            }
            if (hold.isValid()) {
                return lease(hold);
            }
            Hold.giveBackUnhanded(hold, description);
        }
    }

    /**
     * {@link #acquireHold}, where a hold already lost when it arrives is given back and the
     * acquisition goes on within the same deadline. Cancelling the result cancels the attempt in
     * flight.
     */
    private CompletableFuture<Hold> validHold(Deadline deadline) {
        return Futures.untilValid(() -> acquireHold(deadline), Hold::isValid, this::giveBack);
    }

    /**
     * Leases of this lock for the first hold of {@code attempts} that is valid when it arrives: a
     * hold lost on its way is given back and {@code attempts} asked again (a recipe whose next
     * attempt cannot succeed, such as a downgrade of a lost write hold, fails it then, loudly).
     * Cancelling the result cancels the attempt in flight and gives back what it brings.
     *
     * @param attempts starts one acquisition each time it is called
     * @return the lease, once a valid hold arrived (null on timeout)
     */
    protected final CompletableFuture<L> validLeaseOf(Supplier<? extends CompletableFuture<? extends Hold>> attempts) {
        return leaseOf(Futures.untilValid(attempts, Hold::isValid, this::giveBack));
    }

    /** A hold that is not handed out: lost on its way, or arrived after a cancel ({@link Hold#giveBackUnhanded}). */
    private void giveBack(Hold hold) {
        Hold.giveBackUnhanded(hold, description);
    }

    private L lease(Hold hold) {
        L lease = newLease(hold, grant -> leases.remove(grant));
        leases.add(lease);
        return lease;
    }

    private boolean acquireForThread(Deadline deadline) throws InterruptedException {
        Thread me = Thread.currentThread();
        Owned mine = owners.get(me);
        if (mine != null) {
            if (!reentrant) {
                throw new IllegalStateException(subject + " is not re-entrant and thread '" + me.getName()
                    + "' already holds it: a second acquire would wait for itself");
            }
            if (!mine.lease.isValid()) {
                throw mine.lease.newLostException(subject + " was lost while thread '" + me.getName() + "' held it ("
                    + mine.lease.lossReason().orElse("lost") + "); release it before acquiring it again");
            }
            mine.count++;
            return true;
        }
        L lease = leaseBlocking(deadline);
        if (lease == null) {
            return false;
        }
        owners.put(me, new Owned(lease));
        return true;
    }

    /** The newest lease, for {@code toString}. */
    @Override
    public String toString() {
        return description + leases.stream().max(Comparator.comparingLong(Grant::fencingToken))
            .map(l -> " held, token " + l.fencingToken()).orElse(" not held");
    }
}

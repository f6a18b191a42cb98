package dev.baton.recipes.rwlock;

import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.GrantingLock;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.contention.FencingToken;
import java.util.function.Consumer;

/**
 * What the read lock and the write lock share: the framework's {@link GrantingLock} (leases,
 * asynchronous acquisition, the thread-bound API, loud loss), re-entrant, named "the read lock
 * of ..." or "the write lock of ..." in messages. Each side says how it acquires a {@link Hold}
 * and makes its lease type.
 *
 * @param <L> the lease type of this side
 */
abstract sealed class LockSide<L extends Grant> extends GrantingLock<L>
    permits InterProcessReadWriteLock.ReadLock, InterProcessReadWriteLock.WriteLock {

    LockSide(String description) {
        super(description, "the " + description, true);
    }

    /** Makes the lease for a hold of this side. */
    abstract L newLease(Hold hold, String what, Consumer<Grant> onRelease);

    @Override
    protected final L newLease(Hold hold, Consumer<Grant> onRelease) {
        return newLease(hold, description() + " lease", onRelease);
    }

    /**
     * {@return the full token of the calling thread's hold on this side: the node's creation zxid and
     * the hold's number on it (0 except in the {@link dev.baton.framework.contention.SharedTicket} mode)} See
     * {@link FencingToken}; for what a read token means, {@link ReadLease}.
     *
     * @throws IllegalStateException if the calling thread does not hold this side
     */
    public final FencingToken holdToken() {
        L mine = currentThreadLease();
        if (mine == null) {
            throw new IllegalStateException("the " + description() + " is not held by thread '" + Thread.currentThread().getName() + "'");
        }
        return mine instanceof WriteLease write ? write.holdToken() : ((ReadLease) mine).holdToken();
    }

    /** The lease of the calling thread's thread-bound hold on this side, or null (for the other side). */
    final L threadLease() {
        return currentThreadLease();
    }
}

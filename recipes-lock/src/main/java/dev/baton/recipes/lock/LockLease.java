package dev.baton.recipes.lock;

import dev.baton.framework.contention.ProcessLine;
import dev.baton.framework.contention.FencingToken;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.Hold;
import java.util.function.Consumer;

/**
 * A hold on a lock, owned by this handle rather than by a thread: any thread may release it,
 * and try-with-resources releases it at the end of a block.
 *
 * <p>It knows its fencing token, whether it is still valid, and calls back when it is lost; its
 * {@link #guard guard} makes a ZooKeeper transaction commit only while the lease holds.
 * Releasing a lease that was lost throws {@link LockOwnershipLostException} after giving the
 * node back, so a holder that was cut off learns of it.
 *
 * <pre>{@code
 * try (LockLease lease = mutex.acquireLease(Duration.ofSeconds(5))) {
 *     if (lease == null) return;                       // timed out, nothing left behind
 *     lease.guard(client.transaction())                // commits only while the lease holds
 *         .setData("/config/owner", me)
 *         .commit();
 *     storage.write(record, lease.fencingToken());     // the store rejects older tokens
 * }
 * }</pre>
 */
public final class LockLease extends Grant {
    LockLease(Hold hold, String what, Consumer<Grant> onRelease) {
        super(hold, what, onRelease);
    }

    /**
     * {@return the full token of this hold: the node's creation zxid and the hold's number on that
     * node, strictly greater than every earlier hold's} The number is 0 except in the
     * {@link SharedTicket} mode. See {@link FencingToken}.
     */
    public FencingToken holdToken() {
        return ProcessLine.tokenOf(hold());
    }

    @Override
    protected LockOwnershipLostException newLostException(String message) {
        return new LockOwnershipLostException(message);
    }
}

package dev.baton.recipes.lock;

import dev.baton.framework.contention.ProcessLine;
import dev.baton.framework.contention.FencingToken;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.Hold;
import java.util.function.Consumer;

/**
 * One lease of an {@link InterProcessSemaphoreV2}: closing it gives the lease back. Any thread
 * may close it.
 *
 * <p>Like a {@link LockLease} it carries the creation zxid of its node as a token, says whether
 * it is still valid, calls back when lost, and can guard a transaction; closing a lease that was
 * lost throws {@link LockOwnershipLostException} after giving it back. (With several leases the
 * tokens order the grants, but several holders are valid at once: a downstream resource cannot
 * use them to exclude anyone.)
 */
public final class Lease extends Grant {
    private final String nodeName;

    Lease(Hold hold, String what, Consumer<Grant> onRelease) {
        super(hold, what, onRelease);
        String path = hold.nodes().get(0);
        this.nodeName = path.substring(path.lastIndexOf('/') + 1);
    }

    @Override
    protected LockOwnershipLostException newLostException(String message) {
        return new LockOwnershipLostException(message);
    }

    /**
     * {@return the full token of this lease: its node's creation zxid and the lease's hand-off number
     * on that node} The number is 0 except in the {@link SharedTicket} mode. See {@link FencingToken}.
     */
    public FencingToken holdToken() {
        return ProcessLine.tokenOf(hold());
    }

    /** {@return the name of the lease's node in the semaphore's {@code leases} folder} */
    public String nodeName() {
        return nodeName;
    }

    /**
     * Curator's name for {@link #nodeName()}.
     *
     * @return what {@link #nodeName()} returns
     */
    public String getNodeName() {
        return nodeName;
    }
}

package dev.baton.recipes.rwlock;

import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.contention.FencingToken;
import dev.baton.framework.contention.ProcessLine;
import java.util.function.Consumer;

/**
 * A hold on the read lock, owned by this handle rather than by a thread: any thread may release
 * it, and try-with-resources releases it at the end of a block. Other read holds may be valid at
 * the same time; no write hold is.
 *
 * <p>Its {@link #fencingToken()} is the creation zxid of the node that gave the reader its place
 * in line (for a downgrade, the write node it came from). Every writer that held the lock before
 * this reader has a smaller token, every writer that holds it after has a larger one. So a
 * resource that remembers the largest <em>write</em> token it has seen can reject a read whose
 * token is smaller — a reader paused past a later writer. It must not compare read tokens with
 * each other: readers hold together, and a smaller read token is no sign of a stale reader.
 */
public final class ReadLease extends Grant {
    ReadLease(Hold hold, String what, Consumer<Grant> onRelease) {
        super(hold, what, onRelease);
    }

    /**
     * {@return the full token of this hold: the creation zxid of its node and the hold's number on that
     * node} The number is 0 except in the {@link dev.baton.framework.contention.SharedTicket} mode, where the
     * readers of one process that share a read node are numbered in the order they joined it. Compare
     * it with write tokens only, as for {@link #fencingToken()}.
     */
    public FencingToken holdToken() {
        return ProcessLine.tokenOf(hold());
    }
}

package dev.baton.recipes.rwlock;

import dev.baton.framework.Futures;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.contention.Ticket;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.FencingToken;
import dev.baton.framework.contention.ProcessLine;
import dev.baton.framework.observe.ObservedHolds;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A hold on the write lock, owned by this handle rather than by a thread: any thread may release
 * it. While it is valid nobody else holds the lock, to read or to write. Its
 * {@link #fencingToken()} is the creation zxid of its node, larger than that of every earlier
 * writer.
 *
 * <p>{@link #downgrade()} takes the read lock under it at once: the read hold takes this write
 * hold's place in line, so after this lease is released, readers that were waiting behind it get
 * in, and writers behind it still wait for the downgraded reader.
 *
 * <pre>{@code
 * WriteLease write = rw.writeLock().acquireLease();
 * ReadLease read;
 * try {
 *     config.rewrite(write.fencingToken());
 *     read = write.downgrade();             // keep reading what we wrote; others may read too
 * } finally {
 *     write.release();
 * }
 * try (read) {
 *     config.verify(read.fencingToken());
 * }
 * }</pre>
 */
public final class WriteLease extends Grant {
    private final Function<WriteLease, CompletableFuture<ReadLease>> downgrader;

    WriteLease(Hold hold, String what, Consumer<Grant> onRelease, Function<WriteLease, CompletableFuture<ReadLease>> downgrader) {
        super(hold, what, onRelease);
        this.downgrader = downgrader;
    }

    /**
     * Takes the read lock while holding this write lease, without waiting for anyone: one
     * transaction creates a read node in this lease's place in line, checked against this lease's
     * node still existing. Release this lease afterwards to let other readers in.
     *
     * @return the read hold; its token is this lease's token
     * @throws dev.baton.framework.contention.OwnershipLostException if this lease was lost (or
     *     released) before the downgrade could be made, or as it was made (a read hold lost before
     *     it reached the caller is given back, never returned)
     * @throws InterruptedException if the calling thread is interrupted while it waits for the transaction's
     *     reply
     */
    public ReadLease downgrade() throws InterruptedException {
        return Futures.awaitOrCancel(downgradeAsync(), ReadLease::releaseQuietly);
    }

    /**
     * {@link #downgrade()} without blocking a thread.
     *
     * @return the read hold, or a failure as {@link #downgrade()} would throw
     */
    public CompletableFuture<ReadLease> downgradeAsync() {
        return downgrader.apply(this);
    }

    /**
     * {@return the full token of this hold: the write node's creation zxid and the hold's number on
     * that node, strictly greater than every earlier write hold's} The number is 0 except in the
     * {@link dev.baton.framework.contention.SharedTicket} mode. See {@link FencingToken}.
     */
    public FencingToken holdToken() {
        return ProcessLine.tokenOf(hold());
    }

    /** The write node's ticket (for the downgrade). */
    Ticket ticket() {
        // the node may be wrapped to report to the client's observer: its Holding is inside
        return ((Holding) ObservedHolds.unwrap(ProcessLine.nodeOf(hold()))).ticket();
    }

    /** A downgrade takes this hold's place in line: no local writer may be handed the write node after it. */
    void endHandOffs() {
        ProcessLine.endHandOffs(hold());
    }
}

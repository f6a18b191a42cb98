package dev.baton.recipes.rwlock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Failures;
import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.ZPaths;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.framework.contention.Ticket;
import dev.baton.framework.contention.Holding;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * Takes the read lock under a held write lock: a read node in the write node's place in line.
 *
 * <p>The node is named {@code _c_<uuid>-__READ__<the write node's sequence digits>} and created
 * (ephemeral, not sequential) in one transaction with a check that the write node still exists
 * at its first version. So it appears only while the write hold does, and sorts into the write
 * node's place: ahead of every node that came after it. Writers waiting behind the write node
 * see a reader ahead of them when it goes and keep waiting; readers behind it get in. The hold
 * carries the write node's sequence and token, which is what its place in line means.
 */
final class Downgrade {
    /** Lock nodes are never written, so they stay at their first version. */
    private static final int CREATED_VERSION = 0;

    private Downgrade() {
    }

    /**
     * Starts the downgrade of {@code write} (held by {@code client}); completes with the read
     * hold, or fails with {@link OwnershipLostException} if the write hold is lost before the
     * downgrade is made or as it is made (a read hold lost on arrival is given back, never handed on).
     * Cancelling it gives back the read node if the commit makes one anyway.
     */
    static CompletableFuture<Hold> start(BatonClient client, WriteLease write, byte[] data) {
        if (!write.isValid()) {
            return CompletableFuture.failedFuture(new OwnershipLostException(write + " cannot be downgraded: it was "
                + write.lossReason().map(reason -> "lost (" + reason + ")").orElse("released")));
        }
        Ticket held = write.ticket();
        write.endHandOffs(); // before the read node exists: no local writer is handed the node behind it
        String name = "_c_" + UUID.randomUUID() + "-" + ReadWriteRules.READ_MARKER + sequenceDigits(held.name());
        String path = ZPaths.join(ZPaths.parent(held.path()), name);
        CompletableFuture<Hold> result = new CompletableFuture<>();
        client.transaction()
            .check(held.path(), CREATED_VERSION)
            .create(path, data, CreateMode.EPHEMERAL)
            .commitAsync()
            .handle((results, e) -> e == null ? owned(client, path, held) : afterFailure(client, path, held, Failures.unwrap(e)))
            .thenCompose(owned -> owned)
            .whenComplete((owned, e) -> {
                if (e != null) {
                    result.completeExceptionally(Failures.unwrap(e));
                    return;
                }
                Holding hold;
                try {
                    hold = hold(client, path, held, owned);
                } catch (RuntimeException refused) {
                    result.completeExceptionally(refused);
                    return;
                }
                if (!hold.isValid()) {
                    // lost as it was made (the connection dropped as the reply came): so was the write
                    // hold, on the same connection. Fail here rather than hand GrantingLock a lost hold to
                    // give back and retry: an asynchronous retry runs on a thread that holds no write
                    // lock, so it would queue as an ordinary reader behind the caller's own write node
                    hold.delete().exceptionally(ignored -> null);
                    result.completeExceptionally(new OwnershipLostException(write + " cannot be downgraded: the read hold was"
                        + " lost as it was made (" + hold.lossReason().orElse("lost") + "), and the write hold with it"));
                } else if (!result.complete(hold)) {
                    hold.delete(); // cancelled while the commit was under way
                }
            });
        return result;
    }

    /** The digits after the write node's marker, kept as they are so the read node sorts into the same place. */
    static String sequenceDigits(String writeNode) {
        int at = writeNode.lastIndexOf(ReadWriteRules.WRITE_MARKER);
        if (at < 0) {
            throw new IllegalArgumentException("not a write node: " + writeNode);
        }
        return writeNode.substring(at + ReadWriteRules.WRITE_MARKER.length());
    }

    /**
     * Whether the committed node belongs to the write hold's session. The client's sessions only
     * move forward, and the write node was made in the hold's session: if the client is still in
     * it, the commit was too. Otherwise ask the node.
     */
    private static CompletableFuture<Boolean> owned(BatonClient client, String path, Ticket held) {
        if (client.sessionId() == held.sessionId()) {
            return CompletableFuture.completedFuture(true);
        }
        return ownerIsHolder(client, path, held);
    }

    private static CompletableFuture<Boolean> ownerIsHolder(BatonClient client, String path, Ticket held) {
        return client.checkExists().forPathAsync(path).thenApply(stat -> stat != null && stat.getEphemeralOwner() == held.sessionId());
    }

    /**
     * A failed commit. The check failing means the write node is gone: the write hold was lost.
     * The create failing with NODEEXISTS means a retried commit found the node its first attempt
     * made (the uuid is ours alone): look at it. Anything else: the node may or may not exist,
     * so delete it in the background and fail.
     */
    private static CompletableFuture<Boolean> afterFailure(BatonClient client, String path, Ticket held, Throwable cause) {
        if (cause instanceof TransactionFailedException failed) {
            if (failed.failedIndex() == 0) {
                return CompletableFuture.failedFuture(new OwnershipLostException("the write node " + held.path()
                    + " is gone (its session ended or it was deleted), so the write hold cannot be downgraded"));
            }
            if (failed.failedIndex() == 1 && failed.code() == KeeperException.Code.NODEEXISTS) {
                return ownerIsHolder(client, path, held);
            }
        }
        client.delete().quietly().guaranteed().forPathAsync(path);
        return CompletableFuture.failedFuture(cause);
    }

    /** The read hold, if the node belongs to the write hold's session. */
    private static Holding hold(BatonClient client, String path, Ticket held, boolean owned) {
        if (!owned) {
            // made by a newer session of the client while the old write node lingered: not part of the write hold
            client.delete().quietly().guaranteed().forPathAsync(path);
            throw new OwnershipLostException("the session that holds " + held.name() + " ended; the write hold cannot"
                + " be downgraded");
        }
        Ticket read = new Ticket(path, held.sequence(), held.fencingToken(), held.sessionId());
        return Holding.monitor(client, read, client.errorPolicy());
    }
}

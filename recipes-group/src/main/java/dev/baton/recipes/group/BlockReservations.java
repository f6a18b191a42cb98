package dev.baton.recipes.group;

import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonClient;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeExistsException;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The reservation protocol of an {@link IdAllocator}: reserves ranges of ids on the allocator's
 * node, one reservation after the other.
 *
 * <p>A reservation reads the node (first unreserved id N, version v) — or takes both from this
 * object's own last write — and writes N+count with a fresh token at version v: a create, if the
 * node does not exist yet. A bad version (or a create that finds the node, or a node deleted
 * between read and write) means someone else wrote first: read again. The framework retries a
 * write whose reply was lost with the same version and data; {@code idempotent()} makes that retry
 * count the write as done only if the node is one version on and holds exactly this token, which
 * nobody else writes. Anything it cannot prove is treated as not reserved: that range is skipped,
 * never handed out, and the next reservation starts after it.
 */
final class BlockReservations {
    /** Ids {@code start} to {@code end - 1}, this allocator's alone. */
    record Range(long start, long end) {
    }

    /** The node as last seen: the first unreserved id and the node's version (absent: not created yet). */
    private record Known(long next, int version, boolean absent) {
    }

    private final BatonClient client;
    private final String path;
    private final long firstId;
    // guarded by this
    /** The last reservation started: reservations run one after the other, since they share {@link #known}. */
    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);
    /** What the last write of this object left on the node, or null to read it first. Touched only by the running reservation. */
    private volatile Known known;

    BlockReservations(BatonClient client, String path, long firstId) {
        this.client = client;
        this.path = path;
        this.firstId = firstId;
    }

    /** Reserves {@code count} ids with a write made once the reservations before it are done. */
    synchronized CompletableFuture<Range> reserve(long count) {
        CompletableFuture<Range> reservation = tail.handle((v, e) -> null).thenCompose(v -> attempt(count));
        tail = reservation;
        return reservation;
    }

    private CompletableFuture<Range> attempt(long count) {
        Known start = known;
        CompletableFuture<Known> seen = start != null ? CompletableFuture.completedFuture(start) : read();
        return seen.thenCompose(k -> write(k, count)).thenCompose(range -> range != null
            ? CompletableFuture.completedFuture(range)
            : attempt(count)); // someone else reserved first: look again
    }

    private CompletableFuture<Known> read() {
        return client.getData().forPathWithStatAsync(path)
            .thenApply(node -> new Known(Math.max(firstId, Reservation.decode(path, node.data(), firstId).next()),
                node.stat().getVersion(), false))
            .exceptionallyCompose(e -> Failures.unwrap(e) instanceof NoNodeException
                ? CompletableFuture.completedFuture(new Known(firstId, 0, true))
                : CompletableFuture.failedFuture(Failures.unwrap(e)));
    }

    /** One try to reserve {@code count} ids after {@code k}; null if someone else wrote first. */
    private CompletableFuture<Range> write(Known k, long count) {
        long end = k.next() + count;
        if (end > IdAllocator.ID_LIMIT || end < 0) {
            return CompletableFuture.failedFuture(new IdAllocatorException("id allocator " + path + " has run out of ids: "
                + count + " more after " + k.next() + " would pass " + IdAllocator.ID_LIMIT));
        }
        known = null; // until this write is known to have landed
        byte[] data = new Reservation(end, UUID.randomUUID().toString()).encode();
        CompletableFuture<Integer> written = k.absent()
            // a retried create finding exactly this data (this token) is this call's own create
            ? client.create().creatingParentsIfNeeded().idempotent().forPathWithStatAsync(path, data).thenApply(n -> n.stat().getVersion())
            // a retried write finding the node one version on with exactly this token is this call's own write
            : client.setData().withVersion(k.version()).idempotent().forPathAsync(path, data).thenApply(stat -> stat.getVersion());
        return written.thenApply(version -> {
            known = new Known(end, version, false);
            return new Range(k.next(), end);
        }).exceptionallyCompose(e -> {
            Throwable cause = Failures.unwrap(e);
            if (cause instanceof BadVersionException || cause instanceof NodeExistsException || cause instanceof NoNodeException) {
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.failedFuture(cause);
        });
    }
}

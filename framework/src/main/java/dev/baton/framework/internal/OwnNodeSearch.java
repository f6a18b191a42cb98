package dev.baton.framework.internal;

import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.ZooKeeperException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * Finds, after a lost reply, the node one protected create already made: the children of its
 * folder named as the create was sent (one of its stems — protection prefix and name — plus, if
 * sequential, a sequence), which under session protection must also carry the create's
 * {@link CreateMark}: every create of a session shares the {@code x-<sessionId>-} stem, and only
 * the mark tells them apart. A {@code _c_<uuid>-} stem is the create's alone, so its candidates
 * need only their stat (and no read permission).
 *
 * <p>Where to look: an ephemeral create sent only in the current session, on a server that has
 * {@code getEphemerals} (3.6.0+), asks the server for the session's own ephemeral nodes under
 * {@code <folder>/<stem>} instead of listing the folder: the same two round trips (sync and look
 * sent together, then the candidate's read), but a reply of this create's node alone instead of every child of a
 * folder that may hold thousands, and no read permission on the folder needed. Everything else —
 * a persistent node, a create also sent in an earlier session (whose node that session may still
 * hold), an older server — lists the folder. A server that refuses {@code getEphemerals} after all
 * gets the listing.
 *
 * <p>Of this create's nodes, the first one this session may own is adopted; the others — an
 * ephemeral node of an earlier, expired session, or a second node of this create should one ever
 * appear — are deleted before the answer, so that a create sent again does not meet them.
 */
final class OwnNodeSearch {
    /** A node of this create, as read. */
    record Found(String path, Stat stat) {
    }

    private record Candidate(String path, byte[] data, Stat stat) {
    }

    private final NamespacedClient c;
    private final String userPath;
    private final String parent;
    private final CreateMode mode;
    private final UUID mark;

    /**
     * @param parent the server path of the create's folder
     * @param mark the create's mark under session protection, null for a {@code _c_<uuid>-} create
     */
    OwnNodeSearch(NamespacedClient c, String userPath, String parent, CreateMode mode, UUID mark) {
        this.c = c;
        this.userPath = userPath;
        this.parent = parent;
        this.mode = mode;
        this.mark = mark;
    }

    /**
     * The adopted node, or null when there is none this session may own.
     *
     * @param sessions every session a create of this plan was sent in
     */
    CompletableFuture<Found> find(ZooKeeper zk, Set<String> stems, Set<Long> sessions) {
        // a sync first: the look then shows what the leader committed (a server that lags must
        // not hide the node the lost reply was about), and the attempt, whose create went
        // unanswered, still rests on a round trip the leader answered (RetryLoop, LeaderContact).
        // The look goes right behind the sync, not after its reply: a server runs a session's
        // requests in order and holds a read behind the session's pending sync, so the look still
        // sees everything the sync covers, and the search costs one round trip less
        boolean ownEphemerals = mode.isEphemeral() && sessions.equals(Set.of(zk.getSessionId()))
            && c.core.capabilities().supports(ServerCapabilities.Feature.GET_EPHEMERALS);
        CompletableFuture<Void> synced = c.zk().sync(zk, parent, "create", userPath);
        CompletableFuture<List<String>> named = ownEphemerals ? ephemeralsNamed(zk, stems) : listedNamed(zk, stems);
        return Futures.nullIfNoNode(synced
            .thenCompose(v -> named)
            .thenCompose(names -> read(zk, names))
            .thenCompose(candidates -> settle(zk, candidates)));
    }

    /** The folder's children named as this create's nodes, in name order. */
    private CompletableFuture<List<String>> listedNamed(ZooKeeper zk, Set<String> stems) {
        return c.zk().getChildren(zk, parent, null, "create", userPath)
            .thenApply(children -> children.children().stream().filter(child -> named(child, stems)).sorted().toList());
    }

    /**
     * The session's own ephemeral nodes in the folder named as this create's nodes, in name order;
     * the listing instead if the server refuses {@code getEphemerals}.
     */
    private CompletableFuture<List<String>> ephemeralsNamed(ZooKeeper zk, Set<String> stems) {
        List<CompletableFuture<List<String>>> asks = stems.stream()
            .map(stem -> c.zk().getEphemerals(zk, Paths.join(parent, stem), "create", userPath))
            .toList();
        return CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new))
            .thenApply(v -> asks.stream().flatMap(ask -> ask.join().stream())
                // the server answers with full paths (a chroot's included, by some client versions):
                // keep those of this folder, by name
                .filter(path -> path.endsWith(Paths.join(parent, Paths.name(path))))
                .map(Paths::name)
                .filter(child -> named(child, stems))
                .distinct().sorted().toList())
            .exceptionallyCompose(e -> {
                Throwable cause = Failures.unwrap(e);
                if (cause instanceof ZooKeeperException z && z.code() == KeeperException.Code.UNIMPLEMENTED) {
                    c.core.refused(ServerCapabilities.Feature.GET_EPHEMERALS);
                    return listedNamed(zk, stems);
                }
                return CompletableFuture.failedFuture(cause);
            });
    }

    /** A persistent node belongs to the create whatever the session; an ephemeral one only if this session owns it. */
    static boolean ownedHere(CreateMode mode, ZooKeeper zk, Stat stat) {
        return !mode.isEphemeral() || stat.getEphemeralOwner() == zk.getSessionId();
    }

    /** Each named child's stat and, with a mark to check, its data (a child deleted meanwhile is left out), in name order. */
    private CompletableFuture<List<Candidate>> read(ZooKeeper zk, List<String> names) {
        List<CompletableFuture<Candidate>> reads = names.stream()
            .map(child -> Paths.join(parent, child))
            .map(path -> Futures.nullIfNoNode(mark != null
                ? c.zk().getData(zk, path, null, "create", userPath).thenApply(node -> new Candidate(path, node.data(), node.stat()))
                : c.zk().exists(zk, path, null, "create", userPath).thenApply(stat -> stat == null ? null : new Candidate(path, null, stat))))
            .toList();
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
            .thenApply(v -> reads.stream().map(CompletableFuture::join).filter(Objects::nonNull).toList());
    }

    /** Adopts the first of this create's nodes that this session may own; deletes the rest of them. */
    private CompletableFuture<Found> settle(ZooKeeper zk, List<Candidate> candidates) {
        List<Candidate> ours = candidates.stream().filter(this::madeByThisCreate).toList();
        Candidate adopted = ours.stream().filter(found -> ownedHere(mode, zk, found.stat())).findFirst().orElse(null);
        List<CompletableFuture<Void>> deletes = ours.stream()
            .filter(found -> found != adopted)
            .map(found -> Futures.nullIfNoNode(c.zk().delete(zk, found.path(), -1, "create", userPath)))
            .toList();
        return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new))
            .thenApply(v -> adopted == null ? null : new Found(adopted.path(), adopted.stat()));
    }

    /** Whether {@code child} is named as a create of this plan was: one of its stems, plus a sequence if sequential. */
    private boolean named(String child, Set<String> stems) {
        for (String stem : stems) {
            if (mode.isSequential() ? child.startsWith(stem) && Paths.isSequenceNumber(child.substring(stem.length())) : child.equals(stem)) {
                return true;
            }
        }
        return false;
    }

    private boolean madeByThisCreate(Candidate candidate) {
        return mark == null || CreateMark.carries(candidate.data(), mark);
    }
}

package dev.baton.framework.internal;

import dev.baton.framework.Futures;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
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

    /** The adopted node, or null when there is none this session may own. */
    CompletableFuture<Found> find(ZooKeeper zk, Set<String> stems) {
        // a sync first: the listing then shows what the leader committed (a server that lags must
        // not hide the node the lost reply was about), and the attempt, whose create went
        // unanswered, still rests on a round trip the leader answered (RetryLoop, LeaderContact)
        return Futures.nullIfNoNode(c.zk().sync(zk, parent, "create", userPath)
            .thenCompose(synced -> c.zk().getChildren(zk, parent, null, "create", userPath))
            .thenCompose(children -> read(zk, children.children().stream().filter(child -> named(child, stems)).sorted().toList()))
            .thenCompose(candidates -> settle(zk, candidates)));
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

package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.contention.Contenders;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Decision;
import dev.baton.framework.contention.Ticket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An election's line of nodes: the contention engine for it, and the reads and checks the
 * latch, the selector and the observer share. Every decision is a static function over what was
 * read, so it is tested without a server.
 */
final class Line {
    private static final Logger LOG = LoggerFactory.getLogger(Line.class);

    /** Leader latches (Curator's and Baton's) name their nodes {@code _c_<uuid>-latch-<seq>}. */
    public static final String LATCH = "latch-";
    /** Leader selectors name theirs {@code _c_<uuid>-lock-<seq>}, like a mutex (they are one). */
    public static final String SELECTOR = "lock-";

    private final BatonClient client;
    private final String path;
    private final Set<String> markers;
    private final Contention contention;

    /**
     * The mutex rule (first node holds, each other waits for the one before it) without the
     * engine's hand-off shortcut: when the node before ours goes, the engine lists the line again
     * instead of assuming we are first. So every hold the engine reports comes from a listing
     * that shows our node first — it cannot be a node deleted together with its predecessor —
     * and the engine checks that the client is still on the node's session. That listing costs
     * the round trip a confirming read would cost, and leaves nothing to confirm.
     */
    public static final ContentionRule LISTED_MUTEX = (ordered, mine) -> mine == 0
        ? Decision.hold()
        : Decision.waitFor(ordered.get(mine - 1), false);

    private Line(BatonClient client, String path, String marker, Set<String> markers) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = path;
        this.markers = markers;
        this.contention = marker == null ? null : Contention.of(client, path, marker, LISTED_MUTEX);
    }

    /** The line of a latch or selector whose nodes carry {@code marker}. */
    public static Line of(BatonClient client, String path, String marker) {
        return new Line(client, path, marker, Set.of(marker));
    }

    /** A read-only view of a line of either kind (for observers, which do not know which). */
    public static Line observing(BatonClient client, String path) {
        Contention.of(client, path, LATCH, ContentionRule.mutex()); // validates the path the same way
        return new Line(client, path, null, Set.of(LATCH, SELECTOR));
    }

    public Contention contention() {
        return contention;
    }

    public String path() {
        return path;
    }

    /** Whether {@code name} (a child of the election's folder) is a contender's node. */
    public boolean isContender(String name) {
        return Contenders.markerOf(name, markers) != null;
    }

    // ---- decisions ----

    /**
     * Whether a ticket still grants what it granted: its node exists ({@code stat} non-null), it
     * is the same node (same creation zxid, not one created again at the same path) and the
     * client's current session owns it. A node left by an earlier session of the same client, or
     * by another participant with the same id, never passes.
     */
    public static boolean isMine(Ticket ticket, Stat stat, long currentSession) {
        return stat != null
            && stat.getCzxid() == ticket.fencingToken()
            && stat.getEphemeralOwner() == currentSession
            && ticket.sessionId() == currentSession;
    }

    /** The participants of a line, first (the leader) first; names missing from {@code data} vanished while being read. */
    public static List<Participant> participants(List<String> ordered, Map<String, byte[]> data) {
        List<Participant> participants = new ArrayList<>();
        for (String name : ordered) {
            byte[] id = data.get(name);
            if (id != null) {
                participants.add(new Participant(new String(id, StandardCharsets.UTF_8), participants.isEmpty()));
            }
        }
        return participants;
    }

    // ---- I/O ----

    /**
     * Whether {@code ticket} still grants what it granted (after a loss, before leading again); see
     * {@link #isMine}. A sync goes first: the answer then reflects the ensemble's leader, not a
     * follower that may be cut off from it (and still answering), and the sync is the round trip
     * to the leader that leading again rests on ({@code BatonClient.leaderContactNanos()}).
     */
    public CompletableFuture<Boolean> stillMine(Ticket ticket) {
        return client.sync().forPathAsync(ticket.path())
            .thenCompose(synced -> client.checkExists().forPathAsync(ticket.path()))
            .thenApply(stat -> isMine(ticket, stat, client.sessionId()));
    }

    /** The contenders' names, in line order. */
    public CompletableFuture<List<String>> ordered() {
        return client.getChildren().forPathAsync(path)
            .thenApply(children -> Contenders.inOrder(children, markers))
            .exceptionally(e -> {
                if (Failures.unwrap(e) instanceof NoNodeException) {
                    return List.of();
                }
                throw new CompletionException(Failures.unwrap(e));
            });
    }

    /** A node's data and stat, or null if it is gone. */
    public CompletableFuture<NodeData> read(String name) {
        return client.getData().forPathWithStatAsync(path + "/" + name)
            .exceptionally(e -> {
                if (Failures.unwrap(e) instanceof NoNodeException) {
                    return null;
                }
                throw new CompletionException(Failures.unwrap(e));
            });
    }

    /** Every participant, in line order. */
    public List<Participant> participants() throws InterruptedException {
        return Futures.await(ordered().thenCompose(ordered -> {
            Map<String, CompletableFuture<NodeData>> reads = new LinkedHashMap<>();
            ordered.forEach(name -> reads.put(name, read(name)));
            return CompletableFuture.allOf(reads.values().toArray(CompletableFuture[]::new)).thenApply(v -> {
                Map<String, byte[]> data = new LinkedHashMap<>();
                reads.forEach((name, read) -> {
                    NodeData node = read.join();
                    if (node != null) {
                        data.put(name, node.data());
                    }
                });
                return participants(ordered, data);
            });
        }));
    }

    /** The first participant, or {@link Participant}'s "nobody" value. */
    public Participant leader() throws InterruptedException {
        List<Participant> all = participants();
        return all.isEmpty() ? new Participant("", false) : all.get(0);
    }

    /** Replaces what the holder of {@code ticket} publishes; fails if its node is gone. */
    public void publish(Ticket ticket, byte[] data) throws InterruptedException {
        try {
            client.setData().forPath(ticket.path(), data);
        } catch (NoNodeException e) {
            throw new NotLeaderException("cannot proclaim in " + path + ": node " + ticket.name() + " is gone");
        }
    }

    /**
     * Deletes the node of a term that ended and waits for it (without a connection: until the
     * client gives up and leaves it to its background deletion). Keeps the caller's interrupt
     * status: a term ended by an interrupt still gives its node back.
     */
    public void releaseAndWait(Ticket ticket) {
        boolean interrupted = Thread.interrupted();
        try {
            contention.release(ticket).get();
        } catch (InterruptedException e) {
            interrupted = true;
        } catch (ExecutionException e) {
            LOG.debug("{}: node {} will be deleted in the background: {}", path, ticket.name(), e.getCause().toString());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Whether a failure is cured by joining again once connected: connection trouble
     * ({@link Failures#isConnectionTrouble}), or our node gone ({@link NoNodeException}), which in an
     * election means it went with an expired session or was removed, and a fresh join replaces it.
     */
    static boolean curedByNextJoin(Throwable failure) {
        return Failures.isConnectionTrouble(failure) || Failures.unwrap(failure) instanceof NoNodeException;
    }
}

package dev.baton.test.history;

import dev.baton.server.EmbeddedEnsemble;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the servers did, as opposed to what the clients believed: when each node under some
 * folders was created and deleted, by zxid and by time, and when each session ended. Checkers
 * judge a client's belief (its own loss signal, its grants) against it.
 *
 * <p>How: two sources. <b>Observers</b> give times: one plain ZooKeeper client per server, each
 * connected to that server alone (never through a fault proxy, so client faults never touch it),
 * with a persistent recursive watch on each folder. Every {@code NodeCreated} and
 * {@code NodeDeleted} event carries the zxid of the transaction that caused it (ZooKeeper 3.9); a
 * node's life is its creation zxid (its {@code czxid}, which is also a Baton fencing token) and
 * its deletion zxid, and the time of each is the earliest {@link System#nanoTime()} at which any
 * observer heard it. Server faults disconnect observers, and events committed meanwhile are not
 * replayed to a persistent watch, so on every reconnect an observer lists the folders again.
 * <b>The servers' transaction logs</b> give completeness: {@link #settle()}, called once the
 * workload has stopped, reads every committed creation, deletion and session end since the truth
 * started (see {@code ServerLogs}), so a node whose whole life fell while every observer was
 * reconnecting is known too, and every deletion's zxid is exact.
 *
 * <p>Times are bounds. A node's {@link Node#deletedNanos() deletedNanos} is an upper bound on
 * when the servers committed its deletion: the earliest time an observer heard the deletion, or
 * heard of any later transaction (the servers apply transactions in zxid order). Its
 * {@link Node#deletedNanosFloor() deletedNanosFloor} is a lower bound: the leader's wall-clock
 * time when it proposed the deletion (from the log, on this machine's clock), less a millisecond
 * for the log's resolution. Without the logs (before {@code settle}, or for a truth written down
 * with {@link #of}), the floor of a deletion an observer heard is the time it heard it — a
 * millisecond or so late on loopback — and the floor of one found by a listing is 0 (unknown).
 *
 * <p>A node's data at its creation and its owner session (for an ephemeral node) come from the
 * logs, so they are known only after {@code settle}.
 *
 * <pre>{@code
 * try (ServerTruth truth = ServerTruth.watch(ensemble, List.of("/chaos/mutex"))) {
 *     ... the run ...
 *     truth.settle();
 *     truth.byCzxid(token).ifPresent(node -> ... node.deletedNanos() ...);
 * }
 * }</pre>
 */
public final class ServerTruth implements AutoCloseable {
    /** How long {@link #watch} waits for the first observer to be watching. */
    private static final long START_TIMEOUT_NANOS = 20_000_000_000L;

    /**
     * One life of a node (a path may live several times).
     *
     * @param path the node's full path
     * @param czxid creation zxid, or -1 if neither an observer nor the logs knew the creation
     * @param createdNanos earliest time the creation was known (an observer heard it or a later transaction)
     * @param dzxid deletion zxid (an upper bound if {@code deletionExact} is false), or 0 while it lives
     * @param deletedNanos upper bound on when the servers committed the deletion (see the class comment), or 0
     * @param deletionExact whether {@code dzxid} is the deletion's own zxid (from its event or the logs),
     *     not the bound a listing gives
     * @param owner the owner session of an ephemeral node, if known (0 otherwise)
     * @param data its data at creation, if known
     * @param deletedNanosFloor lower bound on when the servers committed the deletion (see the class comment), or 0
     */
    public record Node(String path, long czxid, long createdNanos, long dzxid, long deletedNanos, boolean deletionExact,
                       long owner, byte[] data, long deletedNanosFloor) {
        /**
         * A node whose deletion time is known to the observers' precision: the floor on its
         * deletion time is the time it was heard ({@code deletedNanosFloor = deletedNanos}).
         *
         * @param path the node's full path
         * @param czxid creation zxid, or -1 if unknown
         * @param createdNanos earliest time the creation was known
         * @param dzxid deletion zxid, or 0 while it lives
         * @param deletedNanos upper bound on when the deletion was committed, also taken as its
         *     lower bound; 0 while it lives
         * @param deletionExact whether {@code dzxid} is the deletion's own zxid, not a listing's bound
         * @param owner the owner session of an ephemeral node, or 0 if none or unknown
         * @param data its data at creation, or null if unknown
         */
        public Node(String path, long czxid, long createdNanos, long dzxid, long deletedNanos, boolean deletionExact,
                    long owner, byte[] data) {
            this(path, czxid, createdNanos, dzxid, deletedNanos, deletionExact, owner, data, deletedNanos);
        }

        /**
         * Whether this life has ended.
         *
         * @return {@code true} if a deletion is known ({@code dzxid} is set), exact or not
         */
        public boolean deleted() {
            return dzxid != 0;
        }

        /**
         * Whether the node existed in the servers' state as of {@code zxid}.
         *
         * @param zxid a transaction id; the state meant is the one just after that transaction
         * @return {@code true} if it was created at or before {@code zxid} and not deleted at or
         *     before it
         */
        public boolean existedAt(long zxid) {
            return czxid <= zxid && (dzxid == 0 || dzxid > zxid);
        }

        /**
         * The node's own name, such as a sequential node's {@code lock-0000000007}.
         *
         * @return the last segment of {@link #path()}
         */
        public String name() {
            return path.substring(path.lastIndexOf('/') + 1);
        }
    }

    /**
     * When the servers ended a session, from their logs.
     *
     * @param session the session id
     * @param zxid the zxid of the session's close (expiry or close)
     * @param nanos upper bound on when that was committed
     * @param floorNanos lower bound on when that was committed
     */
    public record SessionEnd(long session, long zxid, long nanos, long floorNanos) {
    }

    private final EmbeddedEnsemble ensemble;
    private final List<String> roots;
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final Lives lives = new Lives(log::add);
    private final CommitTimes times = new CommitTimes();
    private final Map<Long, SessionEnd> sessionEnds = new HashMap<>();
    private final List<TruthObserver> observers = new ArrayList<>();
    private long startZxid = -1;
    /** The logs are read after this zxid: the start, then the last committed transaction read. */
    private long readThrough = -1;
    private long settleMillis;
    private List<String> logProblems = List.of();
    private boolean settled;
    private volatile boolean closed;

    private ServerTruth(EmbeddedEnsemble ensemble, List<String> roots) {
        this.ensemble = ensemble;
        this.roots = List.copyOf(roots);
    }

    /**
     * Starts one observer per server of {@code ensemble}, watching everything under {@code roots}
     * (which need not exist yet), and returns once one observer has listed the folders: from then on nothing under them escapes
     * the truth (the listing holds what existed, {@link #settle()} reads what came after).
     *
     * @param ensemble the servers to observe, one observer each
     * @param roots the folders to watch, with everything below them; they need not exist yet
     * @return the truth, recording until {@link #close()}
     * @throws IllegalStateException if no observer could list the folders within 20 seconds (the
     *     observers are closed)
     * @throws InterruptedException if interrupted while waiting for the first listing
     * @throws NullPointerException if {@code ensemble}, {@code roots} or one of the roots is null
     */
    public static ServerTruth watch(EmbeddedEnsemble ensemble, Collection<String> roots) throws InterruptedException {
        Objects.requireNonNull(ensemble, "ensemble");
        ServerTruth truth = new ServerTruth(ensemble, List.copyOf(roots));
        for (int id = 1; id <= ensemble.size(); id++) {
            truth.observers.add(new TruthObserver(truth, ensemble.connectString(id)));
        }
        long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
        synchronized (truth) {
            while (truth.startZxid < 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    truth.close();
                    throw new IllegalStateException("no observer of " + ensemble + " could list " + roots + " within 20 s: "
                        + truth.log());
                }
                truth.wait(Math.max(1, left / 1_000_000));
            }
        }
        return truth;
    }

    /**
     * A truth written down rather than observed: for checkers' own tests. It has no observers and
     * no logs, so {@link #settle()} does nothing and {@link #settled()} stays false.
     *
     * @param nodes every life the servers are to have had, each node taken as given
     * @return a truth holding exactly those lives
     */
    public static ServerTruth of(List<Node> nodes) {
        ServerTruth truth = new ServerTruth(null, List.of());
        nodes.forEach(truth.lives::add);
        return truth;
    }

    /**
     * Completes the record from the servers' transaction logs: every node created or deleted
     * under the folders since the truth started, with exact zxids, its data and owner, and every
     * session end. Call it once the workload has stopped and the ensemble is whole, before
     * judging; calling it again reads what was committed since. Without it, the truth is what the
     * observers saw.
     */
    public void settle() {
        if (ensemble == null) {
            return;
        }
        long after;
        synchronized (this) {
            after = readThrough;
        }
        long began = System.nanoTime();
        ServerLogs.Read read = ServerLogs.committed(ensemble, after, this::watched);
        synchronized (this) {
            CommitTimes.Bounds bounds = times.bounds();
            for (ServerLogs.Entry entry : read.entries()) {
                apply(entry, bounds.upper(entry.zxid()), times.floor(entry.wallMillis()));
            }
            // proposals beyond the last committed one may commit later: the next settle reads from here
            readThrough = Math.max(readThrough, read.committedThrough());
            List<String> problems = new ArrayList<>(logProblems);
            problems.addAll(read.problems());
            logProblems = List.copyOf(problems);
            settled = true;
            settleMillis += (System.nanoTime() - began) / 1_000_000;
        }
    }

    /**
     * How long reading the logs has taken, for reports of a run's cost.
     *
     * @return milliseconds spent in {@link #settle()}, summed over every call
     */
    public synchronized long settleMillis() {
        return settleMillis;
    }

    /**
     * Whether the servers' logs have been read.
     *
     * @return {@code true} once {@link #settle()} has run on an observed truth, even if some logs
     *     could not be read (see {@link #logProblems()})
     */
    public synchronized boolean settled() {
        return settled;
    }

    /**
     * What {@link #settle()} could not read.
     *
     * @return one line per problem, from every call so far; empty if the logs were read whole
     */
    public synchronized List<String> logProblems() {
        return logProblems;
    }

    /**
     * How many creations or deletions the observers had missed and the logs supplied.
     *
     * @return the count over every {@link #settle()} so far; 0 before the first
     */
    public synchronized int fromLogs() {
        return lives.fromLogs();
    }

    /**
     * When the servers ended a session, if they did. Known only after {@link #settle()}.
     *
     * @param session the session id
     * @return its end, or empty if the logs read so far hold no close or expiry of it
     */
    public synchronized Optional<SessionEnd> sessionEnd(long session) {
        return Optional.ofNullable(sessionEnds.get(session));
    }

    /**
     * Every node life known so far.
     *
     * @return a snapshot of every life of every path, in no particular order
     */
    public synchronized List<Node> nodes() {
        return lives.nodes();
    }

    /**
     * The node created at {@code czxid} (a fencing token names its node this way); if one
     * transaction created several watched nodes, the first of them.
     *
     * @param czxid the creation zxid
     * @return a snapshot of that life, or empty if no watched node is known to have been created
     *     by that transaction
     */
    public synchronized Optional<Node> byCzxid(long czxid) {
        return lives.byCzxid(czxid);
    }

    /**
     * Every life of a path.
     *
     * @param path the node's full path
     * @return snapshots of its lives, by creation zxid (oldest first; a life whose creation is
     *     unknown, czxid -1, comes first); empty if none is known
     */
    public synchronized List<Node> lives(String path) {
        return lives.of(path);
    }

    /**
     * The life of a path that existed in the servers' state as of a zxid.
     *
     * @param path the node's full path
     * @param zxid a transaction id, as {@link Node#existedAt(long)} takes it
     * @return a snapshot of that life, or empty if the node did not exist then
     */
    public synchronized Optional<Node> lifeAt(String path, long zxid) {
        return lives(path).stream().filter(n -> n.existedAt(zxid)).findFirst();
    }

    /**
     * How many deletions are known only by a listing after a reconnect, with an upper bound for a
     * zxid: before {@link #settle()}, those the observers missed; after it, those the logs did not
     * confirm (0 when the logs were read whole).
     *
     * @return the number of such deletions now
     */
    public synchronized int inexactDeletions() {
        return lives.inexact();
    }

    /**
     * The observers' own log, to explain a doubtful verdict: connections lost and found again,
     * listings that failed, disagreements between the observers and the logs.
     *
     * @return a copy of the lines so far, oldest first
     */
    public List<String> log() {
        return List.copyOf(log);
    }

    /**
     * Stops the observers and closes their sessions. What was recorded stays readable.
     *
     * @throws InterruptedException if interrupted while waiting for an observer to stop
     */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        for (TruthObserver o : observers) {
            o.close();
        }
    }

    /** One committed transaction from the logs, committed no later than {@code upper} and no earlier than {@code floor}. */
    private void apply(ServerLogs.Entry entry, long upper, long floor) {
        for (ServerLogs.Change change : entry.changes()) {
            if (change.created()) {
                times.known(entry.zxid(), upper);
                lives.loggedCreation(change, entry.zxid(), upper);
            } else {
                lives.loggedDeletion(change.path(), entry.zxid(), upper, floor);
            }
        }
        if (entry.closesSession()) {
            if (!entry.pathsKnown()) {
                lives.ephemeralsOf(entry.session()).forEach(l -> lives.loggedDeletion(l.path, entry.zxid(), upper, floor));
            }
            sessionEnds.put(entry.session(), new SessionEnd(entry.session(), entry.zxid(), upper, floor));
        }
    }

    private boolean watched(String path) {
        return roots.stream().anyMatch(root -> path.equals(root) || path.startsWith(root.endsWith("/") ? root : root + "/"));
    }

    // what the observers tell the truth, each under its monitor

    /** An observer heard ({@code exactTime}) or listed a creation at {@code nanos}. */
    synchronized void created(String path, long czxid, long nanos, boolean exactTime) {
        times.known(czxid, nanos);
        lives.created(path, czxid, nanos, exactTime);
    }

    /** An observer heard ({@code exact}) a deletion, or a listing showed one, at {@code nanos}. */
    synchronized void deleted(String path, long dzxid, long nanos, boolean exact) {
        if (exact) {
            times.known(dzxid, nanos);
        }
        lives.deleted(path, dzxid, nanos, exact);
    }

    /** At {@code nanos} an observer knew the servers had committed {@code zxid}. */
    synchronized void known(long zxid, long nanos) {
        times.known(zxid, nanos);
    }

    /** Lives of nodes under {@code parent} (direct children) that the truth thinks are alive. */
    synchronized List<Lives.Life> aliveChildren(String parent) {
        return lives.aliveChildren(parent);
    }

    /** The first listing marks the truth's start: the logs are read from its zxid on. */
    synchronized void started(long zxid) {
        if (startZxid < 0) {
            startZxid = zxid;
            readThrough = zxid;
            notifyAll();
        }
    }

    /** Adds a line to the observers' log ({@link #log()}). */
    void note(String line) {
        log.add(line);
    }

    List<String> roots() {
        return roots;
    }

    boolean closed() {
        return closed;
    }
}

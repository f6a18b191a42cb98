package dev.baton.test.history;

import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

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
    private static final int OBSERVER_SESSION_MILLIS = 30_000;
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

    /** The mutable record behind a {@link Node}, guarded by the truth's monitor. */
    private static final class Life {
        final String path;
        long czxid;
        long createdNanos;
        long dzxid;
        long deletedNanos;
        long deletedFloor;
        boolean deletionExact;
        long owner;
        byte[] data;

        Life(String path, long czxid, long createdNanos) {
            this.path = path;
            this.czxid = czxid;
            this.createdNanos = createdNanos;
        }

        Node snapshot() {
            return new Node(path, czxid, createdNanos, dzxid, deletedNanos, deletionExact, owner, data, deletedFloor);
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
    private final Map<String, List<Life>> lives = new HashMap<>();
    private final Map<Long, List<Life>> byCzxid = new HashMap<>();
    private final Map<Long, SessionEnd> sessionEnds = new HashMap<>();
    private final List<Observer> observers = new ArrayList<>();
    private final List<String> log = new CopyOnWriteArrayList<>();
    /** (zxid, time): at that time an observer knew the servers had committed up to that zxid. */
    private final List<long[]> known = new ArrayList<>();
    /** This machine's clocks read together, to place the logs' wall-clock times on the nanoTime line. */
    private final long originNanos = System.nanoTime();
    private final long originWallMillis = System.currentTimeMillis();
    private long startZxid = -1;
    /** The logs are read after this zxid: the start, then the last committed transaction read. */
    private long readThrough = -1;
    private long settleMillis;
    private int inexact;
    private int fromLogs;
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
            truth.observers.add(truth.new Observer(ensemble.connectString(id)));
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
        for (Node n : nodes) {
            Life life = new Life(n.path(), n.czxid(), n.createdNanos());
            life.dzxid = n.dzxid();
            life.deletedNanos = n.deletedNanos();
            life.deletedFloor = n.deletedNanosFloor();
            life.deletionExact = n.deletionExact();
            life.owner = n.owner();
            life.data = n.data();
            truth.lives.computeIfAbsent(n.path(), k -> new ArrayList<>()).add(life);
            truth.byCzxid.computeIfAbsent(n.czxid(), k -> new ArrayList<>()).add(life);
        }
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
            long[][] bounds = knownBounds();
            for (ServerLogs.Entry entry : read.entries()) {
                long upper = upperBound(bounds, entry.zxid());
                long floor = originNanos + (entry.wallMillis() - originWallMillis - 1) * 1_000_000;
                for (ServerLogs.Change change : entry.changes()) {
                    if (change.created()) {
                        loggedCreation(change, entry.zxid(), upper);
                    } else {
                        loggedDeletion(change.path(), entry.zxid(), upper, floor);
                    }
                }
                if (entry.closesSession()) {
                    if (!entry.pathsKnown()) {
                        ephemeralsOf(entry.session()).forEach(l -> loggedDeletion(l.path, entry.zxid(), upper, floor));
                    }
                    sessionEnds.put(entry.session(), new SessionEnd(entry.session(), entry.zxid(), upper, floor));
                }
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
        return fromLogs;
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
        List<Node> out = new ArrayList<>();
        lives.values().forEach(list -> list.forEach(l -> out.add(l.snapshot())));
        return out;
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
        List<Life> created = byCzxid.getOrDefault(czxid, List.of());
        return created.isEmpty() ? Optional.empty() : Optional.of(created.get(0).snapshot());
    }

    /**
     * Every life of a path.
     *
     * @param path the node's full path
     * @return snapshots of its lives, by creation zxid (oldest first; a life whose creation is
     *     unknown, czxid -1, comes first); empty if none is known
     */
    public synchronized List<Node> lives(String path) {
        List<Node> out = new ArrayList<>();
        lives.getOrDefault(path, List.of()).forEach(l -> out.add(l.snapshot()));
        out.sort(java.util.Comparator.comparingLong(Node::czxid));
        return out;
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
        return inexact;
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
        for (Observer o : observers) {
            o.close();
        }
    }

    private synchronized Life created(String path, long czxid, long nanos, boolean exactTime) {
        known(czxid, nanos);
        // one transaction may create several nodes: a life is its path and its czxid
        Life life = byCzxid.getOrDefault(czxid, List.of()).stream().filter(l -> l.path.equals(path)).findFirst()
            .orElse(null);
        if (life == null) {
            // a deletion heard before the creation (from a faster observer that missed the create)
            for (Life l : lives.getOrDefault(path, List.of())) {
                if (l.czxid == -1 && l.dzxid > czxid) {
                    life = l;
                    life.czxid = czxid;
                    break;
                }
            }
            if (life == null) {
                life = new Life(path, czxid, nanos);
                lives.computeIfAbsent(path, k -> new ArrayList<>()).add(life);
            }
            byCzxid.computeIfAbsent(czxid, k -> new ArrayList<>()).add(life);
            life.createdNanos = nanos;
        } else if (exactTime && nanos - life.createdNanos < 0) {
            life.createdNanos = nanos;
        }
        return life;
    }

    private synchronized void deleted(String path, long dzxid, long nanos, boolean exact) {
        if (exact) {
            known(dzxid, nanos);
        }
        Life target = null;
        for (Life l : lives.getOrDefault(path, List.of())) {
            if (l.czxid < dzxid && (target == null || l.czxid > target.czxid)) {
                target = l;
            }
        }
        if (target == null) {
            target = new Life(path, -1, nanos);
            lives.computeIfAbsent(path, k -> new ArrayList<>()).add(target);
        }
        if (target.dzxid == 0) {
            target.dzxid = dzxid;
            target.deletedNanos = nanos;
            target.deletedFloor = exact ? nanos : 0;
            target.deletionExact = exact;
            if (!exact) {
                inexact++;
            }
        } else if (exact && !target.deletionExact) {
            target.dzxid = dzxid;
            target.deletedNanos = nanos;
            target.deletedFloor = nanos;
            target.deletionExact = true;
            inexact--;
        } else if (exact && target.dzxid == dzxid && nanos - target.deletedNanos < 0) {
            target.deletedNanos = nanos;
            target.deletedFloor = nanos;
        }
    }

    /** Records that at {@code nanos} an observer knew the servers had committed {@code zxid}. */
    private synchronized void known(long zxid, long nanos) {
        if (zxid > 0) {
            known.add(new long[] {zxid, nanos});
        }
    }

    /** The known (zxid, time) pairs sorted by zxid, each time replaced by the earliest among it and those after it. */
    private long[][] knownBounds() {
        long[][] bounds = known.toArray(long[][]::new);
        java.util.Arrays.sort(bounds, java.util.Comparator.comparingLong(b -> b[0]));
        for (int i = bounds.length - 2; i >= 0; i--) {
            if (bounds[i + 1][1] - bounds[i][1] < 0) {
                bounds[i] = new long[] {bounds[i][0], bounds[i + 1][1]};
            }
        }
        return bounds;
    }

    /** The earliest time an observer knew the servers had committed {@code zxid} or a later one; now if none did. */
    private static long upperBound(long[][] bounds, long zxid) {
        int lo = 0;
        int hi = bounds.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (bounds[mid][0] < zxid) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < bounds.length ? bounds[lo][1] : System.nanoTime();
    }

    private boolean watched(String path) {
        return roots.stream().anyMatch(root -> path.equals(root) || path.startsWith(root.endsWith("/") ? root : root + "/"));
    }

    /** A creation from the logs: a life the observers missed, or the data and owner they did not read. */
    private void loggedCreation(ServerLogs.Change change, long czxid, long upper) {
        int before = byCzxid.getOrDefault(czxid, List.of()).size();
        Life life = created(change.path(), czxid, upper, false);
        if (byCzxid.get(czxid).size() > before) {
            fromLogs++;
        }
        if (life.data == null) {
            life.data = change.data();
        }
        if (life.owner == 0) {
            life.owner = change.owner();
        }
    }

    /** A deletion from the logs: its exact zxid, and the bounds on its time. */
    private void loggedDeletion(String path, long dzxid, long upper, long floor) {
        Life target = null;
        for (Life l : lives.getOrDefault(path, List.of())) {
            if (l.czxid < dzxid && (target == null || l.czxid > target.czxid)) {
                target = l;
            }
        }
        if (target == null) {
            log.add("the logs delete " + path + " at zxid 0x" + Long.toHexString(dzxid) + ", a node no one saw created");
            target = new Life(path, -1, upper);
            lives.computeIfAbsent(path, k -> new ArrayList<>()).add(target);
        }
        if (target.dzxid == 0 || !target.deletionExact) {
            if (target.dzxid == 0) {
                fromLogs++;
            } else {
                inexact--;
            }
            target.dzxid = dzxid;
            target.deletedNanos = target.deletedNanos == 0 ? upper : Math.min(target.deletedNanos, upper);
            target.deletionExact = true;
        } else if (target.dzxid != dzxid) {
            log.add("an observer heard " + path + " deleted at zxid 0x" + Long.toHexString(target.dzxid) + ", the logs say 0x"
                + Long.toHexString(dzxid) + "; the logs win");
            target.dzxid = dzxid;
            target.deletedNanos = upper;
        }
        target.deletedFloor = floor;
    }

    /** Lives of ephemeral nodes owned by {@code session} that are still alive. */
    private List<Life> ephemeralsOf(long session) {
        List<Life> out = new ArrayList<>();
        lives.values().forEach(list -> list.stream().filter(l -> l.owner == session && l.dzxid == 0).forEach(out::add));
        return out;
    }

    /** The first listing marks the truth's start: the logs are read from its zxid on. */
    private synchronized void started(long zxid) {
        if (startZxid < 0) {
            startZxid = zxid;
            readThrough = zxid;
            notifyAll();
        }
    }

    /** Lives of nodes under {@code parent} (direct children) that the truth thinks are alive. */
    private synchronized List<Life> aliveChildren(String parent) {
        List<Life> out = new ArrayList<>();
        lives.forEach((path, list) -> {
            if (path.startsWith(parent + "/") && path.indexOf('/', parent.length() + 1) < 0) {
                list.stream().filter(l -> l.dzxid == 0 && l.czxid > 0).forEach(out::add);
            }
        });
        return out;
    }

    /** One plain ZooKeeper client on one server. */
    private final class Observer implements Watcher {
        private final String server;
        private final ExecutorService lister;
        private volatile ZooKeeper zk;
        private boolean watching;

        Observer(String server) {
            this.server = server;
            this.lister = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "baton-truth-" + server);
                t.setDaemon(true);
                return t;
            });
            // on the lister's thread, like every later step: the first SyncConnected can come before
            // the constructor returns, and its listing must find the handle assigned
            lister.execute(this::connect);
        }

        private void connect() {
            watching = false;
            try {
                zk = new ZooKeeper(server, OBSERVER_SESSION_MILLIS, this);
            } catch (IOException e) {
                log.add("observer of " + server + " could not start: " + e);
            }
        }

        @Override
        public void process(WatchedEvent event) {
            long now = System.nanoTime();
            switch (event.getType()) {
                case NodeCreated -> created(event.getPath(), event.getZxid(), now, true);
                case NodeDeleted -> deleted(event.getPath(), event.getZxid(), now, true);
                case None -> connection(event.getState());
                default -> { }
            }
        }

        private void connection(Watcher.Event.KeeperState state) {
            if (closed) {
                return;
            }
            switch (state) {
                case SyncConnected -> lister.execute(this::startWatching);
                case Disconnected -> log.add("observer of " + server + " disconnected at " + System.nanoTime());
                case Expired -> lister.execute(() -> {
                    log.add("observer of " + server + " lost its session; starting a new one");
                    try {
                        zk.close();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    connect();
                });
                default -> { }
            }
        }

        /** On every (re)connection: watch (once per session), then list what may have been missed. */
        private void startWatching() {
            ZooKeeper handle = zk;
            try {
                // the servers' state as the listing starts: what existed then is listed, what came after is in the logs
                handle.exists("/", false);
                long before = Zxids.lastSeen(handle);
                if (!watching) {
                    for (String root : roots) {
                        handle.addWatch(root, AddWatchMode.PERSISTENT_RECURSIVE);
                    }
                    watching = true;
                }
                for (String root : roots) {
                    list(handle, root);
                }
                started(before);
            } catch (KeeperException e) {
                log.add("observer of " + server + " could not list after connecting (" + e.code() + "); the next reconnection will");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void list(ZooKeeper handle, String parent) throws KeeperException, InterruptedException {
            Stat parentStat = new Stat();
            List<String> children;
            try {
                children = handle.getChildren(parent, false, parentStat);
            } catch (KeeperException.NoNodeException gone) {
                return;
            }
            long now = System.nanoTime();
            long listedAt = Zxids.lastSeen(handle);
            known(listedAt, now);
            Set<String> listed = new HashSet<>();
            for (String child : children) {
                String path = parent.equals("/") ? "/" + child : parent + "/" + child;
                Stat stat = handle.exists(path, false);
                if (stat == null) {
                    continue;
                }
                listed.add(path);
                created(path, stat.getCzxid(), now, false);
                if (stat.getNumChildren() > 0) {
                    list(handle, path);
                }
            }
            for (Life life : aliveChildren(parent)) {
                // alive in the truth, not listed, and created before the listing: deleted meanwhile
                if (!listed.contains(life.path) && life.czxid <= parentStat.getPzxid()) {
                    deleted(life.path, parentStat.getPzxid(), now, false);
                }
            }
        }

        void close() throws InterruptedException {
            lister.shutdownNow();
            lister.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
            ZooKeeper handle = zk;
            if (handle != null) {
                handle.close();
            }
        }
    }
}

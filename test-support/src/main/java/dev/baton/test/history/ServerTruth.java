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
import java.util.function.Predicate;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * What the servers did, as opposed to what the clients believed: when each node under some
 * folders was created and deleted, by zxid and by time. Checkers judge a client's belief (its own
 * loss signal, its grants) against it.
 *
 * <p>How: one plain ZooKeeper client per server, each connected to that server alone (never
 * through a fault proxy, so client faults never touch it), with a persistent recursive watch on
 * each folder. Every {@code NodeCreated} and {@code NodeDeleted} event carries the zxid of the
 * transaction that caused it (ZooKeeper 3.9); a node's life is its creation zxid (its
 * {@code czxid}, which is also a Baton fencing token) and its deletion zxid. The time of each is
 * the earliest {@link System#nanoTime()} at which any of the observers heard it — an upper bound
 * on when the servers committed it, a millisecond or so late on loopback. Server faults
 * disconnect observers; events committed meanwhile are not replayed to a persistent watch, so on
 * every reconnect an observer lists the folders again: a node found without a creation event is
 * recorded with its exact czxid (from its stat) and the listing's time; a node known alive and no
 * longer listed is recorded deleted <em>inexactly</em> — at the parent's {@code pzxid} (an upper
 * bound on the deletion zxid) and the listing's time — unless another observer heard the exact
 * deletion. Three observers on three servers rarely all miss one event (a commit needs a
 * quorum, whose servers keep their observers), so inexact deletions are rare; checkers report how
 * many they met.
 *
 * <p>For nodes a {@code details} predicate selects, an observer also reads the node once after its
 * creation: its data and its owner session ({@code ephemeralOwner}), when it still exists.
 *
 * <pre>{@code
 * try (ServerTruth truth = ServerTruth.watch(ensemble, List.of("/chaos/mutex"), path -> false)) {
 *     ... the run ...
 *     truth.byCzxid(token).ifPresent(node -> ... node.deletedNanos() ...);
 * }
 * }</pre>
 */
public final class ServerTruth implements AutoCloseable {
    private static final int OBSERVER_SESSION_MILLIS = 30_000;

    /**
     * One life of a node (a path may live several times).
     *
     * @param czxid creation zxid, or -1 if no observer saw the creation
     * @param createdNanos earliest time an observer heard of the creation
     * @param dzxid deletion zxid (an upper bound if {@code deletionExact} is false), or 0 while it lives
     * @param deletedNanos earliest time an observer heard of the deletion, or 0
     * @param deletionExact whether {@code dzxid} and {@code deletedNanos} come from the deletion's own event
     * @param owner the owner session of an ephemeral node, if read (0 otherwise)
     * @param data its data, if read
     */
    public record Node(String path, long czxid, long createdNanos, long dzxid, long deletedNanos, boolean deletionExact,
                       long owner, byte[] data) {
        public boolean deleted() {
            return dzxid != 0;
        }

        /** Whether the node still existed at the servers' state {@code zxid} (created at or before it, deleted after). */
        public boolean existedAt(long zxid) {
            return czxid <= zxid && (dzxid == 0 || dzxid > zxid);
        }

        /** The last path segment. */
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
        boolean deletionExact;
        long owner;
        byte[] data;

        Life(String path, long czxid, long createdNanos) {
            this.path = path;
            this.czxid = czxid;
            this.createdNanos = createdNanos;
        }

        Node snapshot() {
            return new Node(path, czxid, createdNanos, dzxid, deletedNanos, deletionExact, owner, data);
        }
    }

    private final List<String> roots;
    private final Predicate<String> details;
    private final Map<String, List<Life>> lives = new HashMap<>();
    private final Map<Long, Life> byCzxid = new HashMap<>();
    private final List<Observer> observers = new ArrayList<>();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private int inexact;
    private volatile boolean closed;

    private ServerTruth(List<String> roots, Predicate<String> details) {
        this.roots = List.copyOf(roots);
        this.details = details;
    }

    /**
     * Starts one observer per server of {@code ensemble}, watching everything under {@code roots}
     * (which need not exist yet), reading data and owner of the nodes {@code details} selects.
     */
    public static ServerTruth watch(EmbeddedEnsemble ensemble, Collection<String> roots, Predicate<String> details) {
        Objects.requireNonNull(ensemble, "ensemble");
        ServerTruth truth = new ServerTruth(List.copyOf(roots), Objects.requireNonNull(details, "details"));
        for (int id = 1; id <= ensemble.size(); id++) {
            truth.observers.add(truth.new Observer(ensemble.connectString(id)));
        }
        return truth;
    }

    /** A truth written down rather than observed: for checkers' own tests. */
    public static ServerTruth of(List<Node> nodes) {
        ServerTruth truth = new ServerTruth(List.of(), path -> false);
        for (Node n : nodes) {
            Life life = new Life(n.path(), n.czxid(), n.createdNanos());
            life.dzxid = n.dzxid();
            life.deletedNanos = n.deletedNanos();
            life.deletionExact = n.deletionExact();
            life.owner = n.owner();
            life.data = n.data();
            truth.lives.computeIfAbsent(n.path(), k -> new ArrayList<>()).add(life);
            truth.byCzxid.put(n.czxid(), life);
        }
        return truth;
    }

    /** Every node life seen so far. */
    public synchronized List<Node> nodes() {
        List<Node> out = new ArrayList<>();
        lives.values().forEach(list -> list.forEach(l -> out.add(l.snapshot())));
        return out;
    }

    /** The node created at {@code czxid} (a fencing token names its node this way). */
    public synchronized Optional<Node> byCzxid(long czxid) {
        Life life = byCzxid.get(czxid);
        return life == null ? Optional.empty() : Optional.of(life.snapshot());
    }

    /** Every life of {@code path}, oldest first. */
    public synchronized List<Node> lives(String path) {
        List<Node> out = new ArrayList<>();
        lives.getOrDefault(path, List.of()).forEach(l -> out.add(l.snapshot()));
        out.sort(java.util.Comparator.comparingLong(Node::czxid));
        return out;
    }

    /** The life of {@code path} that existed at {@code zxid}, if any. */
    public synchronized Optional<Node> lifeAt(String path, long zxid) {
        return lives(path).stream().filter(n -> n.existedAt(zxid)).findFirst();
    }

    /** How many deletions were found only by a listing after a reconnect (see the class comment). */
    public synchronized int inexactDeletions() {
        return inexact;
    }

    /** The observers' own log: connections lost and found again, listings. */
    public List<String> log() {
        return List.copyOf(log);
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        for (Observer o : observers) {
            o.close();
        }
    }

    private synchronized void created(String path, long czxid, long nanos, boolean exactTime) {
        Life life = byCzxid.get(czxid);
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
            byCzxid.put(czxid, life);
            life.createdNanos = nanos;
        } else if (exactTime && nanos - life.createdNanos < 0) {
            life.createdNanos = nanos;
        }
    }

    private synchronized void deleted(String path, long dzxid, long nanos, boolean exact) {
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
            target.deletionExact = exact;
            if (!exact) {
                inexact++;
            }
        } else if (exact && !target.deletionExact) {
            target.dzxid = dzxid;
            target.deletedNanos = nanos;
            target.deletionExact = true;
            inexact--;
        } else if (exact && target.dzxid == dzxid && nanos - target.deletedNanos < 0) {
            target.deletedNanos = nanos;
        }
    }

    private synchronized void detailed(long czxid, long owner, byte[] data) {
        Life life = byCzxid.get(czxid);
        if (life != null) {
            life.owner = owner;
            life.data = data;
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
            connect();
        }

        private void connect() {
            try {
                zk = new ZooKeeper(server, OBSERVER_SESSION_MILLIS, this);
            } catch (IOException e) {
                throw new IllegalStateException("cannot start an observer of " + server + ": " + e.getMessage(), e);
            }
            watching = false;
        }

        @Override
        public void process(WatchedEvent event) {
            long now = System.nanoTime();
            switch (event.getType()) {
                case NodeCreated -> {
                    created(event.getPath(), event.getZxid(), now, true);
                    if (details.test(event.getPath())) {
                        readDetails(event.getPath());
                    }
                }
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
                if (!watching) {
                    for (String root : roots) {
                        handle.addWatch(root, AddWatchMode.PERSISTENT_RECURSIVE);
                    }
                    watching = true;
                }
                for (String root : roots) {
                    list(handle, root);
                }
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
            Set<String> listed = new HashSet<>();
            for (String child : children) {
                String path = parent.equals("/") ? "/" + child : parent + "/" + child;
                Stat stat = handle.exists(path, false);
                if (stat == null) {
                    continue;
                }
                listed.add(path);
                created(path, stat.getCzxid(), now, false);
                if (details.test(path)) {
                    readDetails(path);
                }
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

        private void readDetails(String path) {
            zk.getData(path, false, (rc, p, ctx, data, stat) -> {
                if (rc == KeeperException.Code.OK.intValue()) {
                    detailed(stat.getCzxid(), stat.getEphemeralOwner(), data);
                }
            }, null);
        }

        void close() throws InterruptedException {
            lister.shutdownNow();
            zk.close();
        }
    }
}

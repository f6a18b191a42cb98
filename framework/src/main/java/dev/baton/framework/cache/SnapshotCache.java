package dev.baton.framework.cache;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.Timeouts;
import dev.baton.framework.internal.Futures;
import dev.baton.framework.internal.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local copy of a subtree that changes only by whole transactions: every published
 * {@link Snapshot} holds either all or none of the writes of each transaction that wrote the
 * subtree's <em>fence</em> node as its last operation.
 *
 * <p>Why not {@link TreeCache}: a tree cache applies one node at a time, reading each node again
 * when its event arrives, so between two nodes of one ZooKeeper multi (or, reading ahead, between
 * a node of the next multi and the rest of it) a reader can see a state the servers never had.
 *
 * <p>Algorithm. One {@code PERSISTENT_RECURSIVE} watch on the root marks every changed node
 * dirty; a <em>round</em> reads the dirty nodes again (one batch, one round trip) and applies the
 * answers to a working copy. The copy is published only if no event of the fence arrived between
 * the moment the round took its batch and the moment it applied the answers. That rule is enough
 * because ZooKeeper sends a session's watch events and replies over one connection in the order
 * the server produced them, and this client hands both on in that order (the events to the event
 * executor before the replies that follow them; the round applies its answers on that same
 * executor): a writer that ends each transaction with a write of the fence makes every other
 * event of the transaction arrive before the fence's, so
 * <ul>
 *   <li>a transaction whose fence event came before the batch was taken had all its nodes marked
 *       dirty by then, and each was read (in this round or an earlier one) after its event, so
 *       the copy holds all of it;</li>
 *   <li>a transaction whose fence event had not come when the answers were applied was committed
 *       after every read of the round was answered (a read that saw it would have been preceded
 *       by its events), so the copy holds none of it.</li>
 * </ul>
 * A round that saw a fence event keeps its answers but publishes nothing; the next round re-reads
 * what the fence's transaction marked dirty. A full load (at start, and after every reconnect,
 * when events may have been missed) is a round over the whole subtree: it installs the watch
 * first, on a new session syncs the server first (so the copy never goes back in time across
 * sessions), then walks the tree. A round that straddles a change of connection state is thrown
 * away: replies may then come from another server, and events may have been lost.
 *
 * <p>Guarantees and caveats. Snapshots are immutable and published in order; a published
 * snapshot never goes back to an older state, across disconnections and session expiries. A node
 * written outside such transactions appears as soon as a round reads it, as with a tree cache.
 * The fence node itself is cached; nodes below it are the writer's bookkeeping and are not.
 * Writes of the fence more often than once per round trip, without a gap, keep the cache from
 * publishing until the gap comes (the working copy is still kept current meanwhile). Listeners run
 * on the client's event executor, in publication order; a listener that blocks delays the cache.
 *
 * <pre>{@code
 * SnapshotCache cache = SnapshotCache.builder(client, "/app/config").fence("/app/config/.releases").build();
 * cache.start();
 * cache.awaitInitialized(Duration.ofSeconds(10));
 * Snapshot s = cache.current();          // one consistent view: read several nodes from it
 * }</pre>
 */
public final class SnapshotCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotCache.class);
    private static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(1);

    /**
     * One consistent view of the subtree.
     *
     * @param sequence 1 for the first published snapshot, then one more for each
     * @param nodes every cached node by path (without the client's namespace); immutable
     */
    public record Snapshot(long sequence, Map<String, ChildData> nodes) {
        /**
         * Keeps an immutable copy of the nodes.
         *
         * @param sequence the snapshot's position
         * @param nodes every cached node by path
         */
        public Snapshot {
            nodes = Map.copyOf(nodes);
        }

        /**
         * The node at {@code path} in this snapshot.
         *
         * @param path an absolute path
         * @return the node, or empty if the snapshot has none there
         */
        public Optional<ChildData> get(String path) {
            return Optional.ofNullable(nodes.get(path));
        }
    }

    /** Told of each published snapshot, in order, on the client's event executor. */
    @FunctionalInterface
    public interface Listener {
        /**
         * Called with each published snapshot.
         *
         * @param previous the snapshot published before, or null for the first one
         * @param current the new snapshot
         * @param changed paths whose node was added, changed or removed since {@code previous}
         *     (every path of {@code current} for the first snapshot)
         */
        void published(Snapshot previous, Snapshot current, Set<String> changed);
    }

    /** A node as a round read it: null data when there was no node. */
    private record Read(String path, ChildData node) {
    }

    private final BatonClient client;
    private final String root;
    private final String fence;
    private final String belowFence;
    private final Executor executor;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final CountDownLatch initialized = new CountDownLatch(1);
    private final Watcher watcher = this::onWatchEvent;
    private final ConnectionStateListener stateListener = new ConnectionStateListener() {
        @Override
        public void stateChanged(BatonClient c, ConnectionState newState) {
            // the variant with the session is the one used
        }

        @Override
        public void stateChanged(BatonClient c, ConnectionStateChange change) {
            onStateChange(change);
        }
    };

    // ---- touched only on the executor (the client's event executor: one task at a time) ----
    private final Map<String, ChildData> working = new HashMap<>();
    private final Set<String> dirty = new LinkedHashSet<>();
    /** Paths applied to the working copy since the last publication. */
    private final Set<String> unpublished = new LinkedHashSet<>();
    /** Fence events seen so far: a round compares the count at its start and its end. */
    private long fenceEvents;
    /** Bumped by every connection state change: a round that straddles one is thrown away. */
    private long epoch;
    private boolean started;
    private boolean loadNeeded = true;
    private boolean syncNeeded;
    private boolean roundRunning;
    private boolean pumpQueued;
    private long watchedSession;
    private long sequence;

    private volatile Snapshot published;
    private volatile boolean closed;

    private SnapshotCache(Builder builder) {
        this.client = builder.client;
        this.root = builder.root;
        this.fence = builder.fence;
        this.belowFence = fence == null ? null : fence + "/";
        this.executor = client.eventExecutor();
    }

    /**
     * A cache of the subtree at {@code root} (the node itself and all its descendants).
     *
     * @param client the client it reads and watches with
     * @param root the subtree's root (it need not exist yet)
     * @return a builder; {@link Builder#build()} makes the cache
     */
    public static Builder builder(BatonClient client, String root) {
        return new Builder(client, root);
    }

    /**
     * Starts watching and loading in the background; {@link #awaitInitialized} waits for the
     * first snapshot.
     *
     * @throws ClientClosedException if the client is closed
     */
    public void start() {
        if (closed) {
            throw new IllegalStateException("snapshot cache of " + root + " is closed");
        }
        if (client.isClosed()) {
            throw new ClientClosedException("start the snapshot cache", root);
        }
        client.addConnectionStateListener(stateListener);
        executor.execute(() -> {
            started = true;
            pump();
        });
    }

    /**
     * Waits for the first snapshot.
     *
     * @param timeout how long to wait at most
     * @return true once it is published, false if {@code timeout} passed first
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public boolean awaitInitialized(Duration timeout) throws InterruptedException {
        return initialized.await(Timeouts.nonNegativeNanos(timeout), TimeUnit.NANOSECONDS);
    }

    /**
     * The latest published snapshot.
     *
     * @return the snapshot, or null before the first
     */
    public Snapshot current() {
        return published;
    }

    /**
     * Tells {@code listener} of each snapshot published from now on.
     *
     * @param listener called on the client's event executor, in publication order
     */
    public void addListener(Listener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Stops telling {@code listener}.
     *
     * @param listener a listener added before (anything else is ignored)
     */
    public void removeListener(Listener listener) {
        listeners.remove(listener);
    }

    /**
     * The subtree's root.
     *
     * @return its absolute path
     */
    public String root() {
        return root;
    }

    /**
     * The fence node's path.
     *
     * @return the path, or empty if the cache has no fence
     */
    public Optional<String> fence() {
        return Optional.ofNullable(fence);
    }

    /** Stops watching; the last snapshot stays readable but no longer changes. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        client.removeConnectionStateListener(stateListener);
        if (!client.isClosed()) {
            client.watches().removeAsync(root, watcher, Watcher.WatcherType.Any);
        }
    }

    // ---- events (on the executor) ----

    private void onWatchEvent(WatchedEvent event) {
        String path = event.getPath();
        if (closed || path == null || !inSubtree(path)) {
            return;
        }
        switch (event.getType()) {
            case NodeCreated, NodeDataChanged, NodeDeleted -> {
                dirty.add(path);
                if (path.equals(fence)) {
                    fenceEvents++;
                }
                pumpSoon();
            }
            default -> {
                // a persistent recursive watch reports no child lists; connection events come through the state listener
            }
        }
    }

    private void onStateChange(ConnectionStateChange change) {
        epoch++;
        if (change.state().isConnected()) {
            // events may have been missed while disconnected: only a full load is sure to see everything
            loadNeeded = true;
        }
        pump();
    }

    /**
     * Starts a round after the tasks already queued on the executor: the events of one
     * transaction arrive in a burst, and one round for all of them saves a round trip.
     */
    private void pumpSoon() {
        if (!pumpQueued) {
            pumpQueued = true;
            executor.execute(() -> {
                pumpQueued = false;
                pump();
            });
        }
    }

    /** Starts the next round if one is due and none is running. */
    private void pump() {
        if (closed || !started || roundRunning || !client.connectionState().isConnected()) {
            return;
        }
        if (loadNeeded) {
            roundRunning = true;
            load();
        } else if (!dirty.isEmpty()) {
            roundRunning = true;
            round();
        }
    }

    // ---- rounds ----

    private void round() {
        long myEpoch = epoch;
        long myFence = fenceEvents;
        List<String> batch = new ArrayList<>(dirty);
        dirty.clear();
        List<CompletableFuture<Read>> reads = batch.stream().map(this::read).toList();
        CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).whenCompleteAsync((v, failure) -> {
            roundRunning = false;
            if (closed) {
                return;
            }
            if (failure != null || epoch != myEpoch) {
                dirty.addAll(batch);
                if (failure != null) {
                    retryLater(failure);
                }
                pump();
                return;
            }
            reads.forEach(read -> apply(read.join()));
            if (fenceEvents == myFence) {
                publish();
            }
            pump();
        }, executor);
    }

    /** A full load: (re)installs the watch on a new session, syncs if needed, and reads the whole subtree. */
    private void load() {
        long myEpoch = epoch;
        long myFence = fenceEvents;
        long session = client.sessionId();
        boolean newSession = session != watchedSession;
        boolean sync = newSession || syncNeeded;
        dirty.clear();
        CompletableFuture<Void> watch = newSession
            ? client.watches().addAsync(root, AddWatchMode.PERSISTENT_RECURSIVE, watcher)
            : CompletableFuture.completedFuture(null);
        Map<String, ChildData> found = new HashMap<>();
        watch.thenCompose(v -> sync ? client.sync().forPathAsync(root) : CompletableFuture.<Void>completedFuture(null))
            .thenCompose(v -> walk(root, found))
            .whenCompleteAsync((v, failure) -> {
                roundRunning = false;
                if (closed) {
                    return;
                }
                if (failure != null) {
                    retryLater(failure);
                    return;
                }
                if (epoch != myEpoch) {
                    pump();
                    return;
                }
                watchedSession = session;
                if (goesBack(found)) {
                    // the server answered from before what was already published: catch it up and load again
                    syncNeeded = true;
                    retryLater(null);
                    return;
                }
                syncNeeded = false;
                loadNeeded = false;
                for (String path : List.copyOf(working.keySet())) {
                    if (!found.containsKey(path)) {
                        apply(new Read(path, null));
                    }
                }
                found.values().forEach(node -> apply(new Read(node.path(), node)));
                if (fenceEvents == myFence) {
                    publish();
                }
                pump();
            }, executor);
    }

    private CompletableFuture<Void> walk(String path, Map<String, ChildData> found) {
        return read(path).thenCompose(read -> {
            ChildData node = read.node();
            if (node == null) {
                return CompletableFuture.completedFuture(null);
            }
            synchronized (found) {
                found.put(path, node);
            }
            if (path.equals(fence) || node.stat().getNumChildren() == 0) {
                return CompletableFuture.completedFuture(null);
            }
            return client.getChildren().forPathAsync(path)
                .exceptionally(e -> {
                    if (Futures.rethrow(e) instanceof NoNodeException) {
                        return List.of();
                    }
                    throw Futures.rethrow(e);
                })
                .thenCompose(children -> CompletableFuture.allOf(children.stream()
                    .map(child -> walk(Paths.join(path, child), found))
                    .toArray(CompletableFuture[]::new)));
        });
    }

    private CompletableFuture<Read> read(String path) {
        return client.getData().forPathWithStatAsync(path)
            .thenApply(d -> new Read(path, new ChildData(path, d.data(), d.stat())))
            .exceptionally(e -> {
                if (Futures.rethrow(e) instanceof NoNodeException) {
                    return new Read(path, null);
                }
                throw Futures.rethrow(e);
            });
    }

    private void apply(Read read) {
        ChildData before = read.node() == null ? working.remove(read.path()) : working.put(read.path(), read.node());
        if (!same(before, read.node())) {
            unpublished.add(read.path());
        }
    }

    /** Whether a full load saw a node older than the published one (a server behind this client's past). */
    private boolean goesBack(Map<String, ChildData> found) {
        Snapshot last = published;
        if (last == null) {
            return false;
        }
        for (ChildData node : found.values()) {
            ChildData seen = last.nodes().get(node.path());
            if (seen != null && seen.stat().getCzxid() == node.stat().getCzxid()
                && node.stat().getMzxid() < seen.stat().getMzxid()) {
                return true;
            }
        }
        return false;
    }

    private void publish() {
        Snapshot previous = published;
        Set<String> changed = new LinkedHashSet<>();
        for (String path : unpublished) {
            ChildData before = previous == null ? null : previous.nodes().get(path);
            if (!same(before, working.get(path))) {
                changed.add(path);
            }
        }
        unpublished.clear();
        if (previous != null && changed.isEmpty()) {
            return;
        }
        Snapshot next = new Snapshot(++sequence, working);
        published = next;
        initialized.countDown();
        Set<String> told = Set.copyOf(previous == null ? next.nodes().keySet() : changed);
        for (Listener listener : listeners) {
            try {
                listener.published(previous, next, told);
            } catch (RuntimeException e) {
                LOG.error("snapshot cache of {}: a listener threw; later snapshots still reach it", root, e);
            }
        }
    }

    private void retryLater(Throwable failure) {
        if (failure != null && !client.isClosed()) {
            LOG.warn("snapshot cache of {}: a read failed ({}); loading again in {}", root, Futures.rethrow(failure).getMessage(),
                RETRY_AFTER_FAILURE);
        }
        loadNeeded = true;
        CompletableFuture.delayedExecutor(RETRY_AFTER_FAILURE.toMillis(), TimeUnit.MILLISECONDS, client.asyncExecutor())
            .execute(() -> executor.execute(this::pump));
    }

    private static boolean same(ChildData a, ChildData b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.stat().getCzxid() == b.stat().getCzxid() && a.stat().getMzxid() == b.stat().getMzxid();
    }

    private boolean inSubtree(String path) {
        if (belowFence != null && path.startsWith(belowFence)) {
            return false;
        }
        return path.equals(root) || path.startsWith(root.equals("/") ? "/" : root + "/");
    }

    /** Configures a {@link SnapshotCache}. */
    public static final class Builder {
        private final BatonClient client;
        private final String root;
        private String fence;

        private Builder(BatonClient client, String root) {
            this.client = Objects.requireNonNull(client, "client");
            this.root = Paths.validate("snapshot cache", root, false);
        }

        /**
         * The node that writers of the subtree write as the last operation of every transaction
         * whose writes must be seen together. It must lie under the root; its children are not
         * cached. Without a fence, every round publishes.
         *
         * @param path the fence's absolute path
         * @return this builder
         */
        public Builder fence(String path) {
            Paths.validate("snapshot cache fence", path, false);
            if (!path.startsWith(root.equals("/") ? "/" : root + "/")) {
                throw new IllegalArgumentException("the fence " + path + " must lie under the cache's root " + root);
            }
            this.fence = path;
            return this;
        }

        /**
         * Makes the cache; {@link SnapshotCache#start()} starts it.
         *
         * @return a new cache, not started
         */
        public SnapshotCache build() {
            return new SnapshotCache(this);
        }
    }
}

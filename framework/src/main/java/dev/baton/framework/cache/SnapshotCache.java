package dev.baton.framework.cache;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.Failures;
import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.internal.Paths;
import dev.baton.framework.internal.WakeUps;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
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
 * <p>Algorithm. One {@code PERSISTENT_RECURSIVE} watch on the root reports every changed node;
 * each event is remembered (with its transaction's zxid, which ZooKeeper 3.9 servers send with
 * it) until a read of that node answers for it, and the node is read at once, each read on its
 * own (they are pipelined on the connection, so a transaction's reads cost one round trip, not
 * one each). A read <em>answers for</em> an event if it was sent after that event arrived, or
 * after any event of the same transaction or a later one arrived: the server had applied the
 * transaction before it sent that event, and it answers a session's requests in order. Each
 * answer is applied to a working copy, which is published when every event that arrived up to
 * the latest event of the <em>fence</em> has been answered for. That rule is enough because
 * ZooKeeper sends a session's watch events and replies over one connection in the order the
 * server produced them, an answer that reflects a transaction comes after all of that
 * transaction's events, and this cache handles both in that order: on ZooKeeper's event thread
 * itself, where they arrive one after the other (for a client of Baton's own; with any other
 * {@link BatonClient}, on its event executor, events handed there before the replies that follow
 * them, and answers, which such a client may complete in any order, applied in the order their
 * reads were sent). For a writer that ends each transaction with a write of the fence:
 * <ul>
 *   <li>a transaction whose fence event has arrived had all its other events arrive before it,
 *       and each has been answered for, so every one of its nodes is in the copy as it was
 *       written or later;</li>
 *   <li>a transaction whose fence event has not arrived is reflected by no answer applied yet
 *       (such an answer would have come after that event), so the copy holds none of it.</li>
 * </ul>
 * A release of one key and the fence is therefore published one round trip after its first event.
 * On a server with a multi of reads (3.6.0+) that sends events with their zxid (3.9), every read
 * of a changed node takes the fence along in the same request: that read answers for the fence's
 * event of the same transaction, so a release of one key costs a watcher one request, not two. A full load
 * (at start, and after every reconnect, when events may have been missed) reads the whole
 * subtree and answers for every event that arrived before it began: it installs the watch first,
 * on a new session syncs the server first (so the copy never goes back in time across sessions),
 * then walks the tree; it publishes if no fence event came meanwhile, or by the rule above. Reads
 * and loads that straddle a change of connection state are thrown away: replies may then come
 * from another server, and events may have been lost. On the event thread a change is known in
 * order with the replies and events around it: the client counts each change there before it hands
 * on what came after it, and the cache compares that count before it handles each reply or event.
 *
 * <p>Why the event thread: a watcher that reads on each change pays, per change, the hand-offs
 * between threads on its way; handling events and answers where they arrive leaves one, the
 * hand-over of a published snapshot to the listeners. Nothing there blocks or runs user code (the
 * cache only counts, sends reads, and copies its map when it publishes, into the one announcement
 * waiting for the listeners); listeners are always told on the client's event executor.
 *
 * <p>Guarantees and caveats. Snapshots are immutable and published in order; a published
 * snapshot never goes back to an older state, across disconnections and session expiries. A node
 * written outside such transactions appears as soon as a round reads it, as with a tree cache.
 * The fence node itself is cached; nodes below it are the writer's bookkeeping and are not.
 * Writes of the fence more often than once per round trip, without a gap, keep the cache from
 * publishing until the gap comes (the working copy is still kept current meanwhile). With a server that
 * sends events without their zxid (before 3.9) an event is answered for only by reads sent after
 * it, so a node changed again while its read is in flight is read once more. Listeners run
 * on the client's event executor, in publication order; a listener that blocks delays the
 * listeners after it and {@link #current()} (the latest snapshot told), not the cache's reads.
 *
 * <p>Announcements coalesce. While an announcement is queued on the executor and has not started,
 * a newer snapshot does not queue another: it takes the place of the one that announcement will
 * tell, and its changed paths join that announcement's. At most one announcement per cache waits
 * on the executor (besides the one running), however long a listener blocks and however many
 * snapshots are made meanwhile, so memory holds one waiting copy of the map, not one per snapshot,
 * and a listener that returns is told the latest snapshot next. Listeners may therefore skip
 * snapshots (their sequence numbers show the gap), never see an older one after a newer, and after
 * a quiet period have been told the latest; each call's {@code previous} is the snapshot of the
 * call before. Another client's answers are applied on the executor itself, and each snapshot is
 * told there at once.
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
     * @param sequence 1 for the first snapshot made, then one more for each; listeners and
     *     {@link SnapshotCache#current()} may skip some (see the class comment), so they can see gaps
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

    /**
     * Told of published snapshots, in order, on the client's event executor; snapshots made while
     * an announcement waits there are told as one (see the class comment).
     */
    @FunctionalInterface
    public interface Listener {
        /**
         * Called with the latest snapshot, newer than the one of the call before.
         *
         * @param previous the snapshot of the call before (the one told last), or null for the first one
         * @param current the new snapshot
         * @param changed paths whose node was added, changed or removed since {@code previous}
         *     (every path of {@code current} for the first snapshot)
         */
        void published(Snapshot previous, Snapshot current, Set<String> changed);
    }

    private final BatonClient client;
    /** The client's view whose replies complete on ZooKeeper's event thread: a read's answer is only handed to the executor there. */
    private final BatonClient replies;
    private final String root;
    private final String fence;
    private final String belowFence;
    /** {@link Builder#rootOnly()}: the root alone is read and kept, nothing below it. */
    private final boolean rootOnly;
    private final Executor executor;
    /**
     * The client's count of connection state changes, when events and replies are handled on
     * ZooKeeper's event thread (a client of Baton's own); null when they go through the event
     * executor (see the class comment).
     */
    private final LongSupplier transitions;
    private final Announcer announcer;
    private final Watcher watcher;
    private final RootWatch rootWatch;
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

    // ---- guarded by lock (taken on ZooKeeper's event thread and on the event executor) ----
    private final Object lock = new Object();
    private final Map<String, ChildData> working = new HashMap<>();
    /** Paths with an event that still need a read sent (while a load runs, or while disconnected). */
    private final Set<String> dirty = new LinkedHashSet<>();
    /** Paths applied to the working copy since the last publication. */
    private final Set<String> unpublished = new LinkedHashSet<>();
    /** The events not yet answered for, and the reads in flight. */
    private final EventBook book;
    /** Bumped by every connection state change: a read or load that straddles one is thrown away. */
    private long epoch;
    private boolean started;
    private boolean loadNeeded = true;
    private boolean syncNeeded;
    private boolean loadRunning;

    private long watchedSession;
    private long sequence;
    /** The client's count of connection state changes when this cache last looked (see {@link #noteTransitions}). */
    private long seenTransitions;
    /** The latest snapshot made: published, or on its way to the listeners. */
    private Snapshot built;
    /** With a client not of Baton's own: done when the answer to the latest read sent has been applied. */
    private CompletableFuture<Void> answeredInOrder = CompletableFuture.completedFuture(null);

    private volatile boolean closed;

    private SnapshotCache(Builder builder) {
        this.client = builder.client;
        this.root = builder.root;
        this.fence = builder.fence;
        this.belowFence = fence == null ? null : fence + "/";
        this.rootOnly = builder.rootOnly;
        this.executor = client.eventExecutor();
        this.announcer = new Announcer(root, executor);
        this.book = new EventBook(fence);
        this.transitions = WakeUps.connectionTransitions(client);
        if (transitions != null) {
            this.replies = WakeUps.repliesInPlace(client);
            this.watcher = (WakeUps.DirectWatcher) this::onWatchEvent;
            this.seenTransitions = transitions.getAsLong();
        } else {
            this.replies = client;
            this.watcher = this::onWatchEvent;
        }
        // a cache of the root alone hears of nothing below it: no event of a child to drop
        this.rootWatch = new RootWatch(client, root, watcher, rootOnly ? AddWatchMode.PERSISTENT : AddWatchMode.PERSISTENT_RECURSIVE);
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
     * @throws ClientNotStartedException if the client was never started (start it, then this: the
     *     cache stays unstarted, so the same cache can start then)
     * @throws ClientClosedException if the client is closed
     */
    public void start() {
        if (closed) {
            throw new IllegalStateException("snapshot cache of " + root + " is closed");
        }
        // unstarted, no snapshot would ever come: a client never started never connects
        client.requireStarted("start the snapshot cache", root);
        client.addConnectionStateListener(stateListener);
        executor.execute(() -> {
            synchronized (lock) {
                started = true;
                pump();
            }
        });
    }

    /**
     * Waits for the first snapshot; a close of the client ends the wait at once.
     *
     * @param timeout how long to wait at most
     * @return true once it is published, false if {@code timeout} passed first
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws ClientClosedException if the client is closed (before or while it waits) and no snapshot was published
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public boolean awaitInitialized(Duration timeout) throws InterruptedException {
        return announcer.awaitFirst(client, timeout);
    }

    /**
     * The latest published snapshot.
     *
     * @return the snapshot, or null before the first
     */
    public Snapshot current() {
        return announcer.told();
    }

    /**
     * Tells {@code listener} of the snapshots published from now on (those made while an
     * announcement waits are told as one).
     *
     * @param listener called on the client's event executor, in publication order
     */
    public void addListener(Listener listener) {
        announcer.add(listener);
    }

    /**
     * Stops telling {@code listener}.
     *
     * @param listener a listener added before (anything else is ignored)
     */
    public void removeListener(Listener listener) {
        announcer.remove(listener);
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

    /**
     * Stops watching; the last snapshot stays readable but no longer changes. No load starts
     * after it, and the session keeps no watch of the root: once the removal this sends (or, if
     * a load's addWatch is still on its way, the one sent when that is answered) has had its
     * round trip, the server sends the cache nothing more.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        client.removeConnectionStateListener(stateListener);
        rootWatch.close();
    }

    // ---- events (on the executor) ----

    private void onWatchEvent(WatchedEvent event) {
        String path = event.getPath();
        if (closed || path == null) {
            return;
        }
        synchronized (lock) {
            noteTransitions();
            onNodeEvent(event, path);
        }
    }

    private void onNodeEvent(WatchedEvent event, String path) {
        switch (event.getType()) {
            case NodeCreated, NodeDataChanged, NodeDeleted -> {
                book.applied(event.getZxid()); // any event, even of a node below the fence
                if (!inSubtree(path) || !book.arrived(path, event.getZxid())) {
                    return; // not cached, or a read of this path in flight was sent after its transaction: it answers for it
                }
                dirty.add(path);
                pump();
            }
            default -> {
                // a persistent recursive watch reports no child lists; connection events come through the state listener
            }
        }
    }

    private void onStateChange(ConnectionStateChange change) {
        if (transitions != null) {
            // Not on the reporting thread: with an event executor that runs tasks on the caller's thread, that thread holds
            // the connection's lock, which ZooKeeper's event thread may be waiting for while it holds this cache's lock.
            try {
                client.asyncExecutor().execute(() -> {
                    synchronized (lock) {
                        noteTransitions(); // mostly seen already, by the first event or reply after the change
                        pump(); // a reconnect with no event after it still needs its load
                    }
                });
            } catch (RejectedExecutionException e) {
                // the client is closing: nothing more to load
            }
            return;
        }
        synchronized (lock) {
            changedConnection();
            pump();
        }
    }

    /**
     * On ZooKeeper's event thread, notices a connection state change that came before what is
     * handled next: the client counts each change on that thread before it hands on anything
     * that followed it on the connection, so a reply handled with the count unchanged since its
     * request was sent came over that request's connection, and the first event after a
     * reconnect finds the count moved and asks for a load before anything else.
     */
    private void noteTransitions() {
        if (transitions == null) {
            return;
        }
        long now = transitions.getAsLong();
        if (now != seenTransitions) {
            seenTransitions = now;
            changedConnection();
        }
    }

    /** Replies in flight may come from another server, and events may have been missed: a full load is due. */
    private void changedConnection() {
        epoch++;
        book.forgetInFlight();
        loadNeeded = true;
    }

    /** Starts a load if one is due, or else sends a read of every dirty path; nothing while a load runs. */
    private void pump() {
        if (closed || !started || loadRunning || !client.connectionState().isConnected()) {
            return;
        }
        if (loadNeeded) {
            loadRunning = true;
            load();
            return;
        }
        List<String> toSend = List.copyOf(dirty);
        dirty.clear();
        toSend.forEach(this::send);
    }

    // ---- reads of changed nodes ----

    /**
     * Reads {@code path} now, without waiting for other reads: its answer is applied as soon as it
     * comes (on the executor, after every event that preceded it on the connection), and may
     * publish (see {@link #coveredUpToFence}).
     */
    private void send(String path) {
        long myEpoch = epoch;
        long sentReceipt = book.received();
        long sentZxid = book.maxZxid();
        // with a multi of reads, the fence rides along in the same request: its event of this transaction (which comes
        // after this one, or came before with the same zxid) is then answered for by this read, and needs none of its own
        List<String> paths = fence != null && !path.equals(fence) && sentZxid >= 0
            && client.serverCapabilities().supports(ServerCapabilities.Feature.MULTI_READ) ? List.of(path, fence) : List.of(path);
        book.sent(paths, sentZxid);
        whenAnswered(SubtreeReads.read(replies, paths), (reads, failure) -> {
            if (closed || epoch != myEpoch) {
                return; // a load follows the state change and reads everything again
            }
            book.returned(paths, sentZxid);
            if (failure != null) {
                if (!loadNeeded) {
                    retryLater(failure); // one load for all the reads that fail together
                }
                return;
            }
            for (SubtreeReads.Read read : reads) {
                apply(read);
                book.cover(read.path(), sentReceipt, sentZxid);
            }
            if (!loadRunning && book.coveredUpToFence()) {
                publish();
            }
        });
    }

    /**
     * Runs {@code then} under the lock with the read's outcome: on ZooKeeper's event thread where
     * the reply arrives (a client of Baton's own), else on the event executor, after the answers
     * to the reads sent before it; either way after every event that came before the reply.
     */
    private <T> void whenAnswered(CompletableFuture<T> answer, BiConsumer<T, Throwable> then) {
        BiConsumer<T, Throwable> locked = (value, failure) -> {
            synchronized (lock) {
                noteTransitions();
                then.accept(value, failure);
            }
        };
        if (transitions != null) {
            answer.whenComplete(locked);
            return;
        }
        // Another client's answers complete on pool threads, in any order; applied as they came, an older answer could
        // land after a newer one and take the copy back for good (its events were covered by the newer one). They are
        // applied in the order they were sent, which is the order they were answered on the connection.
        CompletableFuture<Void> before = answeredInOrder;
        CompletableFuture<Void> mine = new CompletableFuture<>();
        answeredInOrder = mine;
        answer.whenComplete((value, failure) -> before.whenCompleteAsync((v, f) -> {
            try {
                locked.accept(value, failure);
            } finally {
                mine.complete(null);
            }
        }, executor));
    }

    /** A full load: (re)installs the watch on a new session, syncs if needed, and reads the whole subtree. */
    private void load() {
        long myEpoch = epoch;
        long myFence = book.fenceEvents();
        long myReceipt = book.received();
        long myZxid = book.maxZxid();
        long session = client.sessionId();
        boolean newSession = session != watchedSession;
        boolean sync = newSession || syncNeeded;
        dirty.clear();
        CompletableFuture<Void> watch = CompletableFuture.completedFuture(null);
        if (newSession) {
            watch = rootWatch.add();
            if (watch == null) {
                loadRunning = false; // no load after close(): its watch would outlive the cache
                return;
            }
        }
        Map<String, ChildData> found = new HashMap<>();
        watch.thenCompose(v -> sync ? client.sync().forPathAsync(root) : CompletableFuture.<Void>completedFuture(null))
            .thenCompose(v -> SubtreeReads.walk(client, root, rootOnly ? root : fence, found)) // the walk stops at that node
            .whenCompleteAsync((v, failure) -> {
                synchronized (lock) {
                    noteTransitions();
                    loaded(myEpoch, myFence, myReceipt, myZxid, session, found, failure);
                }
            }, executor);
    }

    private void loaded(long myEpoch, long myFence, long myReceipt, long myZxid, long session, Map<String, ChildData> found,
                        Throwable failure) {
        loadRunning = false;
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
                apply(new SubtreeReads.Read(path, null));
            }
        }
        found.values().forEach(node -> apply(new SubtreeReads.Read(node.path(), node)));
        // every node was read (or found gone) after the events seen when the load began
        book.coverAll(myReceipt, myZxid);
        if (book.fenceEvents() == myFence || book.coveredUpToFence()) {
            publish();
        }
        pump();
    }

    private void apply(SubtreeReads.Read read) {
        ChildData before = read.node() == null ? working.remove(read.path()) : working.put(read.path(), read.node());
        if (!same(before, read.node())) {
            unpublished.add(read.path());
        }
    }

    /** Whether a full load saw a node older than the published one (a server behind this client's past). */
    private boolean goesBack(Map<String, ChildData> found) {
        Snapshot last = built;
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
        Snapshot previous = built;
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
        // Copied now, not when the announcement runs: only now does the working copy hold every fenced transaction whole
        // (by then answers of a later transaction may be in it without the rest), and the next publication's diff and a
        // load's goesBack() compare against exactly this state.
        Snapshot next = new Snapshot(++sequence, working);
        built = next;
        if (transitions == null) {
            announcer.now(previous, next, previous == null ? next.nodes().keySet() : changed); // on the event executor already
            return;
        }
        announcer.later(previous, next, changed);
    }

    private void retryLater(Throwable failure) {
        if (failure != null && !client.isClosed()) {
            String why = Failures.rethrow(failure).getMessage();
            executor.execute(() -> LOG.warn("snapshot cache of {}: a read failed ({}); loading again in {}", root, why,
                RETRY_AFTER_FAILURE)); // not on ZooKeeper's event thread
        }
        loadNeeded = true;
        CompletableFuture.delayedExecutor(RETRY_AFTER_FAILURE.toMillis(), TimeUnit.MILLISECONDS, client.asyncExecutor())
            .execute(() -> executor.execute(() -> {
                synchronized (lock) {
                    pump();
                }
            }));
    }

    static boolean same(ChildData a, ChildData b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.stat().getCzxid() == b.stat().getCzxid() && a.stat().getMzxid() == b.stat().getMzxid();
    }

    private boolean inSubtree(String path) {
        if (rootOnly) {
            return path.equals(root);
        }
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
        private boolean rootOnly;

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
         * Caches the root alone, as a node cache does: nodes below it are neither read nor kept, and
         * their changes are ignored. For a value kept in one node, whose children (anyone's, readable
         * or not, however many) must not cost its watchers reads, or stop the cache: a load that
         * cannot read a node retries, and publishes nothing until it can.
         *
         * @return this builder
         */
        public Builder rootOnly() {
            this.rootOnly = true;
            return this;
        }

        /**
         * Makes the cache; {@link SnapshotCache#start()} starts it.
         *
         * @return a new cache, not started
         * @throws IllegalStateException if both a {@link #fence} and {@link #rootOnly()} were set: a cache of
         *     its root alone has no node below it to fence with
         */
        public SnapshotCache build() {
            if (rootOnly && fence != null) {
                throw new IllegalStateException("a snapshot cache of " + root + " alone (rootOnly) cannot have the fence "
                    + fence + " below it");
            }
            return new SnapshotCache(this);
        }
    }
}

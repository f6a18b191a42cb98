package dev.baton.framework.cache;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.internal.Paths;
import dev.baton.framework.internal.SerialExecutor;
import dev.baton.framework.internal.WakeUps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local copy of a subtree, kept current by one persistent recursive watch.
 *
 * <p>Algorithm: one {@code PERSISTENT_RECURSIVE} watch on the root (never one per node); a full
 * load walks the subtree down to {@code maxDepth}; each watch event (created, data changed,
 * deleted) is applied in order — a created or changed node is read again first. The read is sent
 * when the event comes and its reply applied in the event's turn, so the reads of a burst of
 * events overlap (replies on one session come in the order they were sent); a read sent before a
 * full load began, or while one ran, is not used — the node is read again in its turn, so it
 * cannot undo what the load applied. Everything — loads and events — is applied through one
 * queue, one step at a time, so the cache applies changes in the order the servers made them.
 * Listeners hear ADDED, UPDATED and REMOVED, and INITIALIZED once after the first load, in order,
 * on the cache's executor.
 *
 * <p>Guarantees and caveats: after a reconnect the cache loads the whole subtree again and
 * reports the differences (events missed while disconnected are not lost); after a session expiry
 * it also installs its watch again (watches belong to a session). A step that fails (no
 * connection) asks for a full load a second later; requests coalesce, so many steps failing in one
 * outage cost one load (and one more if a request comes while a load runs), not one each. Every load starts with a sync,
 * so a server behind what the cache has already applied catches up first: the copy never goes
 * back to an older state. Between a change on the servers
 * and the cache seeing it there is a delay of one or two round trips. A node deeper than
 * {@code maxDepth}, or one the {@linkplain Builder#filter filter} refuses, is ignored: it costs no read.
 */
public final class TreeCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TreeCache.class);
    private static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(1);
    private static final byte[] NO_DATA = new byte[0];
    /** Early reads in flight per cache at most: a longer burst is read one node at a time, as it was before reads overlapped. */
    private static final int MAX_EARLY_READS = 1000;

    private final BatonClient client;
    private final String root;
    private final int maxDepth;
    private final boolean cacheData;
    private final Predicate<String> filter;
    private final Executor listenerExecutor;
    private final NavigableMap<String, ChildData> nodes = new TreeMap<>();
    private final CopyOnWriteArrayList<CacheListener> listeners = new CopyOnWriteArrayList<>();
    /** Set once by the first load (on the cache's serial chain), read by the initialization wait. */
    private volatile boolean initialized;
    /** Wakes {@link #awaitInitialized}: bumped at the first load (the client's close wakes it too). */
    private final ChangeSignal initializedOrClosed = new ChangeSignal();
    private final Watcher watcher = this::onWatchEvent;
    private final RootWatch rootWatch;
    private final ConnectionStateListener stateListener = new ConnectionStateListener() {
        @Override
        public void stateChanged(BatonClient c, ConnectionState newState) {
            // the variant with the session is the one used
        }

        @Override
        public void stateChanged(BatonClient c, ConnectionStateChange change) {
            if (change.state() == ConnectionState.RECONNECTED || change.state() == ConnectionState.CONNECTED) {
                requestReload(Duration.ZERO);
            }
        }
    };
    /** Full loads that completed: tests in this package count them (one outage must not cost one per failed step). */
    private final AtomicLong reloadsDone = new AtomicLong();
    private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
    /** Whether a full load waits for its time ({@code reloadTimer}) or its turn in the queue; guarded by this. */
    private ReloadState reload = ReloadState.NONE;
    /** Which timer may queue the waiting load: a timer overtaken by an immediate request must do nothing; guarded by this. */
    private long reloadTimer;
    private long watchedSession;
    private boolean started;
    /**
     * Bumped when a load begins: an early read sent before that is answered before the load's
     * reads, from an older state, and is not used; guarded by this. With whether a load runs (early
     * reads sent then are not used either).
     */
    private long readEpoch;
    private boolean loadRunning;
    /**
     * The reads sent at their turn ({@link #refresh}) while early reads were queued, numbered: an
     * early read sent before one of them and queued behind it is answered from an older state, and
     * is not used if that read was of the same node, an ancestor or a descendant (it could take the
     * node back, or bring back one the newer read removed); an unrelated node's read does not touch
     * it. Only the entries an early read still queued could be older than are kept; guarded by this.
     */
    private final java.util.ArrayDeque<TurnRead> turnReads = new java.util.ArrayDeque<>();
    private long turnReadsSent;
    /** Early reads queued and not yet at their turn: past {@link #MAX_EARLY_READS} a node is read at its turn instead; guarded by this. */
    private int earlyReads;
    /** The most early reads queued at once, and how many were used: tests in this package look (reads of a burst overlap); guarded by this. */
    private int earlyReadsPeak;
    private long earlyReadsUsed;
    /**
     * The client's count of connection state changes, in order with its replies (null for a client
     * not of Baton's own: then nothing is read early): an early read is used only if no change came
     * between its sending and its turn, so it went out and was answered on the connection the reads
     * after it used, in their order (a retried read, sent again after a reconnect, is not).
     */
    private final LongSupplier transitions;
    private volatile boolean closed;

    private TreeCache(Builder builder) {
        this.client = builder.client;
        this.root = builder.root;
        this.transitions = WakeUps.connectionTransitions(builder.client);
        this.maxDepth = builder.maxDepth;
        this.cacheData = builder.cacheData;
        this.filter = builder.filter;
        this.rootWatch = new RootWatch(client, root, watcher);
        this.listenerExecutor = builder.executor == null
            ? client.eventExecutor()
            : new SerialExecutor(builder.executor, client, "the listeners of the tree cache of " + root);
    }

    /**
     * {@return a cache of the subtree at {@code path} (the node itself and all its descendants by default)}
     *
     * @param client the client to read and watch with
     * @param path the subtree's root
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid path
     */
    public static Builder builder(BatonClient client, String path) {
        return new Builder(client, path);
    }

    /**
     * Starts watching and loading, in the background; {@link #awaitInitialized} waits for the first load.
     * Needs no connection: without one the cache stays empty and loads when the client connects.
     *
     * @throws ClientNotStartedException if the client was never started (start it, then this: the
     *     cache stays unstarted, so the same cache can start then)
     * @throws ClientClosedException if the client is closed (the cache could never load)
     */
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("cache of " + root + " is closed");
        }
        // unstarted, it would stay empty, waiting for a connection that a client never started never makes
        client.requireStarted("start the cache", root);
        if (started) {
            return;
        }
        started = true;
        client.addConnectionStateListener(stateListener);
        requestReload(Duration.ZERO);
    }

    /**
     * Waits for the first full load; returns false if {@code timeout} passed first. A close of the
     * client ends the wait at once: a closed client never loads the cache.
     *
     * @param timeout how long to wait at most
     * @return whether the first load is done
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws ClientClosedException if the client is closed (before or while it waits) and the first load is not done
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean awaitInitialized(Duration timeout) throws InterruptedException {
        return initializedOrClosed.awaitUnlessClosed(client, () -> initialized,
            Deadline.afterNonNegative(timeout, client.ticker()), "wait for the first load of the cache", root);
    }

    /**
     * Adds a listener, told of every later change (adding a listener twice adds it once, as
     * {@link ChildrenCache#addListener} and Curator's listenables do: one removal then stops it).
     *
     * @param listener the listener to add
     */
    public void addListener(CacheListener listener) {
        listeners.addIfAbsent(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Removes a listener; it hears nothing more.
     *
     * @param listener the listener to remove
     */
    public void removeListener(CacheListener listener) {
        listeners.remove(listener);
    }

    /**
     * {@return the cached node at {@code path}, if any}
     *
     * @param path a path in the subtree
     */
    public synchronized Optional<ChildData> get(String path) {
        return Optional.ofNullable(nodes.get(path));
    }

    /**
     * {@return the cached children of {@code path}, by name, in name order}
     *
     * @param path a path in the subtree
     */
    public synchronized Map<String, ChildData> children(String path) {
        Map<String, ChildData> children = new LinkedHashMap<>();
        String prefix = path.equals("/") ? "/" : path + "/";
        for (ChildData node : nodes.tailMap(prefix, false).values()) {
            if (!node.path().startsWith(prefix)) {
                break;
            }
            if (node.path().indexOf('/', prefix.length()) < 0) {
                children.put(node.name(), node);
            }
        }
        return children;
    }

    /** {@return every cached node, by path} */
    public synchronized Map<String, ChildData> snapshot() {
        return new LinkedHashMap<>(nodes);
    }

    /** {@return the cached subtree's root path} */
    public String root() {
        return root;
    }

    /**
     * Stops watching; the cache's content stays readable but no longer changes. No load starts
     * after it, and the session keeps no watch of the root: once the removal this sends (or, if
     * a load's addWatch is still on its way, the one sent when that is answered) has had its
     * round trip, the server sends the cache nothing more.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        client.removeConnectionStateListener(stateListener);
        rootWatch.close();
    }

    /** {@return how many full loads of the subtree completed so far} */
    long reloadsDone() {
        return reloadsDone.get();
    }

    synchronized int earlyReadsPeak() {
        return earlyReadsPeak;
    }

    synchronized long earlyReadsUsed() {
        return earlyReadsUsed;
    }

    /** {@return early reads queued and not yet at their turn} */
    synchronized int earlyReadsPending() {
        return earlyReads;
    }

    // ---- the queue: one step at a time, in order ----

    private synchronized void enqueue(Supplier<CompletableFuture<Void>> step) {
        if (closed) {
            return;
        }
        tail = tail.thenCompose(v -> closed ? CompletableFuture.<Void>completedFuture(null) : step.get())
            .exceptionally(e -> {
                if (!closed && !client.isClosed()) {
                    LOG.warn("cache of {}: a step failed ({}); loading again in {}", root, Failures.rethrow(e).getMessage(), RETRY_AFTER_FAILURE);
                    // not on the thread that failed the step, which may be the client's own
                    client.asyncExecutor().execute(() -> requestReload(RETRY_AFTER_FAILURE));
                }
                return null;
            });
    }

    /** Where the next full load stands. */
    private enum ReloadState {
        /** None requested since the last one started. */
        NONE,
        /** Requested, queued when its timer fires. */
        WAITING,
        /** In the queue, not yet started. */
        QUEUED
    }

    /**
     * Asks for a full load {@code after} from now, coalescing: while one waits (for its timer or its
     * turn) a request adds nothing — one load after the failures that asked for it catches up on
     * them all, where one load per failed step made an outage with many queued steps cost as many
     * loads back to back — except that an immediate request (a reconnect) does not wait for a
     * waiting one's timer. A load counts as waiting only until it starts: a request made while one
     * runs queues one more, since the running one may have read before the change that asked.
     */
    private synchronized void requestReload(Duration after) {
        if (closed || reload == ReloadState.QUEUED) {
            return;
        }
        if (after.isZero()) {
            reload = ReloadState.QUEUED;
            enqueue(this::reloadNow);
            return;
        }
        if (reload == ReloadState.WAITING) {
            return;
        }
        reload = ReloadState.WAITING;
        long timer = ++reloadTimer;
        CompletableFuture.delayedExecutor(after.toMillis(), TimeUnit.MILLISECONDS, client.asyncExecutor())
            .execute(() -> timerFired(timer));
    }

    private synchronized void timerFired(long timer) {
        if (reload == ReloadState.WAITING && reloadTimer == timer) {
            reload = ReloadState.QUEUED;
            enqueue(this::reloadNow);
        }
    }

    /** The queued full load, starting: from here on a new request queues another. */
    private CompletableFuture<Void> reloadNow() {
        synchronized (this) {
            reload = ReloadState.NONE;
            readEpoch++;
            loadRunning = true;
        }
        CompletableFuture<Void> load;
        try {
            load = resync();
        } catch (RuntimeException e) {
            load = CompletableFuture.failedFuture(e);
        }
        return load.whenComplete((v, e) -> {
            synchronized (this) {
                loadRunning = false;
            }
        });
    }

    private void onWatchEvent(WatchedEvent event) {
        String path = event.getPath();
        if (path == null || depth(path) < 0 || depth(path) > maxDepth) {
            return;
        }
        switch (event.getType()) {
            case NodeCreated, NodeDataChanged -> {
                if (!accepted(path)) {
                    return; // not wanted: no read (a deletion is still applied, in case it was cached before)
                }
                // send the read now and apply its reply in its turn: a burst of events costs about one
                // round trip, where reading after the previous step made each event wait a round trip
                // behind the last (and each read of a busy client wait behind its writes)
                EarlyRead early = readEarly(path);
                enqueue(early == null ? () -> refresh(path) : () -> applyEarly(early));
            }
            case NodeDeleted -> enqueue(() -> {
                removeSubtree(path);
                return CompletableFuture.completedFuture(null);
            });
            default -> {
                // persistent recursive watches report no child-list events; connection events come through the state listener
            }
        }
    }

    /**
     * Reads one node again, at its turn, and applies what the server says now. Early reads queued
     * behind it went out before it and would be answered from an older state: they are not used.
     */
    private CompletableFuture<Void> refresh(String path) {
        synchronized (this) {
            turnReadsSent++;
            if (earlyReads > 0) {
                turnReads.addLast(new TurnRead(turnReadsSent, path));
            }
        }
        return read(path).thenAccept(found -> apply(path, found));
    }

    /** A read sent at its turn: its number ({@link #turnReadsSent} then) and its node. */
    private record TurnRead(long number, String path) {
    }

    private void apply(String path, ChildData found) {
        if (found == null) {
            removeSubtree(path);
        } else {
            put(found);
        }
    }

    /**
     * A read sent when its event came, before its turn in the queue: the {@link #readEpoch} when it
     * was sent (-1 if a load ran), the client's count of connection state changes then, and how many
     * reads had gone out at their turn ({@link #turnReadsSent}).
     */
    private record EarlyRead(String path, long epoch, long transitions, long turnReadsBefore, CompletableFuture<ChildData> reply) {
    }

    /** Sends {@code path}'s read now, or returns null: the node is then read at its turn. */
    private EarlyRead readEarly(String path) {
        long epoch;
        long seen;
        long turnReadsBefore;
        synchronized (this) {
            if (closed || transitions == null || earlyReads >= MAX_EARLY_READS) {
                return null;
            }
            earlyReads++;
            earlyReadsPeak = Math.max(earlyReadsPeak, earlyReads);
            // both taken before the read is sent: a load, a read at its turn or a connection change after this is seen
            epoch = loadRunning ? -1 : readEpoch;
            seen = transitions.getAsLong();
            turnReadsBefore = turnReadsSent;
        }
        return new EarlyRead(path, epoch, seen, turnReadsBefore, read(path));
    }

    /**
     * Applies an early read in its turn. Replies on one connection come in the order the requests
     * were sent, so early reads applied in event order move the copy forward, as reads sent one
     * after the other would. Three things break that, and a read they touch is not used — the node
     * is read again now, as before pipelining: a read sent before a load began, or while one ran
     * (the load's reads went out later and may have applied a newer state, a node it found
     * deleted); a read sent before a read of the same node, an ancestor or a descendant went out at
     * its turn (that read is newer); and a read with a connection state change between its sending
     * and its turn (sent again after a reconnect, it may have overtaken reads sent after it). One
     * that failed is read again too. A read at its turn of an unrelated node leaves the early reads
     * behind it usable: each node still moves forward, so a burst behind one such read stays
     * pipelined (when every read at its turn spoiled every early read behind it, each of those was
     * read at its turn in its place, spoiling the next: behind a steady stream of changes the cache
     * read one node per round trip until the stream paused).
     */
    private CompletableFuture<Void> applyEarly(EarlyRead early) {
        boolean usable;
        synchronized (this) {
            earlyReads--;
            usable = early.epoch() >= 0 && early.epoch() == readEpoch && early.transitions() == transitions.getAsLong()
                && !readAtTurnSince(early);
            // every early read still queued was sent after this one: turn reads it is not older than concern none of them
            while (!turnReads.isEmpty() && (earlyReads == 0 || turnReads.peekFirst().number() <= early.turnReadsBefore())) {
                turnReads.pollFirst();
            }
        }
        if (!usable) {
            return refresh(early.path());
        }
        return early.reply().handle((found, failure) -> failure == null)
            .thenCompose(answered -> {
                if (!answered) {
                    return refresh(early.path());
                }
                // counted before it is applied: a test that heard the change sees it counted
                synchronized (this) {
                    earlyReadsUsed++;
                }
                apply(early.path(), early.reply().join());
                return CompletableFuture.<Void>completedFuture(null);
            });
    }

    /** Whether a read of a node related to {@code early}'s went out at its turn after {@code early} was sent; holds this. */
    private boolean readAtTurnSince(EarlyRead early) {
        for (java.util.Iterator<TurnRead> newest = turnReads.descendingIterator(); newest.hasNext(); ) {
            TurnRead read = newest.next();
            if (read.number() <= early.turnReadsBefore()) {
                return false;
            }
            if (related(read.path(), early.path())) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code a} and {@code b} are one node, or one is below the other. */
    private static boolean related(String a, String b) {
        return a.equals(b) || below(a, b) || below(b, a);
    }

    private static boolean below(String path, String ancestor) {
        return ancestor.equals("/") || path.length() > ancestor.length() && path.startsWith(ancestor) && path.charAt(ancestor.length()) == '/';
    }

    /** Installs the watch if this session has none, loads the whole subtree, and applies the differences. */
    private CompletableFuture<Void> resync() {
        long session = client.sessionId();
        CompletableFuture<Void> watch = CompletableFuture.completedFuture(null);
        if (session != watchedSession) {
            CompletableFuture<Void> added = rootWatch.add();
            if (added == null) {
                return watch; // no load after close(): its watch would outlive the cache
            }
            watch = added.thenRun(() -> watchedSession = session);
        }
        Map<String, ChildData> found = new TreeMap<>();
        // sync first: the server this client is on now may be behind what the cache has already
        // applied (a reconnect may land on a follower that has not yet applied changes whose events
        // came from the last one: ZooKeeper only keeps a session from going behind its replies, not
        // behind its events), and a walk answered from before them would show deleted nodes again.
        // TransactionChaosTest: a participant's view lost, regained and lost again four transactions
        // it had been told, and it was told them twice.
        return watch.thenCompose(v -> client.sync().forPathAsync(root)).thenCompose(v -> walk(root, 0, found)).thenRun(() -> {
            reconcile(found);
            reloadsDone.incrementAndGet();
            if (!initialized) {
                initialized = true;
                initializedOrClosed.bump();
                notifyListeners(new CacheEvent(CacheEvent.Type.INITIALIZED, null, null));
            }
        });
    }

    private CompletableFuture<Void> walk(String path, int depth, Map<String, ChildData> found) {
        return read(path).thenCompose(node -> {
            if (node == null) {
                return CompletableFuture.completedFuture(null);
            }
            synchronized (found) {
                found.put(path, node);
            }
            if (depth >= maxDepth || node.stat().getNumChildren() == 0) {
                return CompletableFuture.completedFuture(null);
            }
            return SubtreeReads.childrenOrNone(client, path)
                .thenCompose(children -> CompletableFuture.allOf(children.stream()
                    .map(child -> Paths.join(path, child))
                    .filter(this::accepted)
                    .map(child -> walk(child, depth + 1, found))
                    .toArray(CompletableFuture[]::new)));
        });
    }

    /** The node at {@code path} now, or null if there is none. */
    private CompletableFuture<ChildData> read(String path) {
        CompletableFuture<ChildData> read = cacheData
            ? client.getData().forPathWithStatAsync(path).thenApply(d -> new ChildData(path, d.data(), d.stat()))
            : client.checkExists().forPathAsync(path).thenApply(stat -> stat == null ? null : new ChildData(path, NO_DATA, stat));
        return read.exceptionally(e -> {
            if (Failures.rethrow(e) instanceof NoNodeException) {
                return null;
            }
            throw Failures.rethrow(e);
        });
    }

    private void reconcile(Map<String, ChildData> found) {
        List<ChildData> gone = new ArrayList<>();
        synchronized (this) {
            for (ChildData cached : nodes.values()) {
                if (!found.containsKey(cached.path())) {
                    gone.add(cached);
                }
            }
        }
        gone.forEach(node -> removeSubtree(node.path()));
        found.values().forEach(this::put);
    }

    private void put(ChildData node) {
        ChildData previous;
        synchronized (this) {
            previous = nodes.get(node.path());
            if (previous != null && !isNewer(node.stat(), previous.stat())) {
                return;
            }
            if (previous != null && previous.stat().getMzxid() == node.stat().getMzxid()
                && previous.stat().getCzxid() == node.stat().getCzxid() && Arrays.equals(previous.data(), node.data())) {
                return;
            }
            nodes.put(node.path(), node);
        }
        notifyListeners(previous == null
            ? new CacheEvent(CacheEvent.Type.ADDED, node, null)
            : new CacheEvent(CacheEvent.Type.UPDATED, node, previous));
    }

    private static boolean isNewer(Stat candidate, Stat current) {
        return candidate.getCzxid() != current.getCzxid() || candidate.getMzxid() >= current.getMzxid();
    }

    private void removeSubtree(String path) {
        List<ChildData> removed = new ArrayList<>();
        synchronized (this) {
            ChildData node = nodes.remove(path);
            String prefix = path.equals("/") ? "/" : path + "/";
            var below = nodes.tailMap(prefix, true).entrySet().iterator();
            while (below.hasNext()) {
                var entry = below.next();
                if (!entry.getKey().startsWith(prefix)) {
                    break;
                }
                removed.add(entry.getValue());
                below.remove();
            }
            if (node != null) {
                removed.add(node);
            }
        }
        removed.forEach(node -> notifyListeners(new CacheEvent(CacheEvent.Type.REMOVED, node, null)));
    }

    private void notifyListeners(CacheEvent event) {
        for (CacheListener listener : listeners) {
            listenerExecutor.execute(() -> listener.event(event));
        }
    }

    /**
     * Whether the filter accepts {@code path} (under the root) and every ancestor below the root.
     * A filter that throws accepts: reading a node too many costs a read, skipping one loses it.
     */
    private boolean accepted(String path) {
        if (filter == null) {
            return true;
        }
        for (String p = path; !p.equals(root); p = parent(p)) {
            boolean accepts;
            try {
                accepts = filter.test(p);
            } catch (RuntimeException e) {
                LOG.warn("cache of {}: the filter threw on {}; caching it", root, p, e);
                accepts = true;
            }
            if (!accepts) {
                return false;
            }
        }
        return true;
    }

    private static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash == 0 ? "/" : path.substring(0, slash);
    }

    /** Depth of {@code path} below the root (0 for the root), or -1 if it is not under it. */
    private int depth(String path) {
        if (path.equals(root)) {
            return 0;
        }
        String prefix = root.equals("/") ? "/" : root + "/";
        if (!path.startsWith(prefix)) {
            return -1;
        }
        int depth = 1;
        for (int i = prefix.length(); i < path.length(); i++) {
            if (path.charAt(i) == '/') {
                depth++;
            }
        }
        return depth;
    }

    /** Configures a {@link TreeCache}. */
    public static final class Builder {
        private final BatonClient client;
        private final String root;
        private int maxDepth = Integer.MAX_VALUE;
        private boolean cacheData = true;
        private Predicate<String> filter;
        private Executor executor;

        private Builder(BatonClient client, String root) {
            this.client = Objects.requireNonNull(client, "client");
            this.root = Paths.validateRecipe("TreeCache", root, true);
        }

        /**
         * How deep below the root to cache: 0 the root alone, 1 its children too, ... Default: everything.
         *
         * @param depth how deep below the root to cache: 0 the root alone, 1 its children too, and so on
         * @return this builder
         */
        public Builder maxDepth(int depth) {
            if (depth < 0) {
                throw new IllegalArgumentException("maxDepth must be 0 or more, was " + depth);
            }
            this.maxDepth = depth;
            return this;
        }

        /**
         * Whether to keep node data (default) or only stats.
         *
         * @param keep whether to keep node data (default) or only stats
         * @return this builder
         */
        public Builder cacheData(boolean keep) {
            this.cacheData = keep;
            return this;
        }

        /**
         * Which nodes below the root to cache. A node is read and kept only if {@code accept}
         * accepts its path and the path of each of its ancestors below the root; the others, and
         * everything under them, cost no read (the root is always cached). Default: every node.
         *
         * <p>The test runs on the client's event thread for every creation and change under the
         * root: it must be quick, must not block, and should not throw (a path whose test throws
         * is cached). It may refuse later what it accepted before: nodes it now refuses stay in the
         * cache until they are deleted or the next full load, which removes them (listeners hear
         * {@code REMOVED} though the nodes still exist). A filter that accepts later what it refused
         * before sees such a node cached only at its next change or the next full load.
         *
         * @param accept whether to cache the node at a path
         * @return this builder
         */
        public Builder filter(Predicate<String> accept) {
            this.filter = Objects.requireNonNull(accept, "filter");
            return this;
        }

        /**
         * Where listeners run (in order, one at a time). Default: the client's event executor. If
         * it refuses a call ({@code RejectedExecutionException}, a bounded pool that is full) while
         * the client is open, nothing is lost: the events wait, in order, and are handed to it again
         * until it takes them, with a WARN at most every 30 s; only once the client is closed, or
         * the executor is shut down, is what it refused dropped. See docs/framework.md, "Threads".
         *
         * @param listenerExecutor where listeners run (in order, one at a time)
         * @return this builder
         */
        public Builder executor(Executor listenerExecutor) {
            this.executor = Objects.requireNonNull(listenerExecutor, "executor");
            return this;
        }

        /** {@return a cache with these settings, not yet started} */
        public TreeCache build() {
            return new TreeCache(this);
        }
    }
}

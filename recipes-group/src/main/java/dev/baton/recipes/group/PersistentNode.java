package dev.baton.recipes.group;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.Blocking;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientClosingListener;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.CreateBuilder;
import dev.baton.framework.DataTooLargeException;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.NoChildrenForEphemeralsException;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeOwner;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node this client keeps in existence — ephemeral, protected sequential, persistent or a
 * container — with the latest data given to it: Curator's {@code PersistentNode}, same layout and
 * behaviour, so a Curator process and a Baton process can share its nodes.
 *
 * <p>Algorithm: one serial loop makes the tree match what is wanted, one step at a time. The first
 * step creates the node (parents as containers; with protection the framework's protected create,
 * {@code _c_<uuid>-<name>}, so a lost reply never makes a second node). Every later step looks at
 * the node it made, leaving a watch: a node that is gone is created again at the same actual path
 * (a sequential node keeps its name: it is re-created non-sequentially), and a node that does not
 * carry the latest data is given it. A node found already there (another process's, or this
 * session's before a lost reply) is taken over: given this node's data and watched. The loop runs
 * again on every watch event, on every (re)connection and a second after a failed step.
 *
 * <p>Guarantees and caveats: while the client can reach the ensemble the node exists, within a
 * round trip or two of being deleted — by someone else, with its parent, or by the end of the
 * session (an ephemeral node is re-created in the new session). Without a connection an ephemeral
 * node goes with its session and comes back once a new session is established: others see a gap,
 * as they must. {@link #setData} survives re-creation: the node is always created with the latest
 * data. Two PersistentNodes on one non-sequential path share the node (the last data written wins),
 * as in Curator. {@link #close()} deletes the node (waiting for a step in flight first, so a late
 * create cannot leave it behind); without a connection the delete finishes in the background.
 * Data the servers cannot take, or a parent that is an ephemeral node (which cannot have children),
 * is not retried: {@link #waitForInitialCreate} throws the reason at once; the node is created
 * once {@link #setData} gives data that fits, or once the ephemeral parent is gone.
 *
 * <pre>{@code
 * try (PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/workers/w-17", info)) {
 *     node.start();
 *     node.waitForInitialCreate(Duration.ofSeconds(10));
 *     ... the node exists while this process lives and can reach the ensemble ...
 *     node.setData(newInfo);    // kept across re-creations
 * }
 * }</pre>
 */
public final class PersistentNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PersistentNode.class);
    private static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(1);

    private enum State { LATENT, STARTED, CLOSED }

    /** A {@link #setDataAsync} waiting for its data (generation) to be on the node. */
    private record Waiter(long generation, CompletableFuture<Void> written) {
    }

    private final BatonClient client;
    private final CreateMode mode;
    private final boolean useProtection;
    private final String basePath;
    private final boolean deleteOnClose;
    private final List<PersistentNodeListener> listeners = new CopyOnWriteArrayList<>();
    private final Watcher watcher = this::onWatchEvent;
    private final ClientClosingListener connectionListener = new ClientClosingListener() {
        @Override
        public void stateChanged(BatonClient c, ConnectionState state) {
            if (state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED) {
                kick();
            }
        }

        /** A closed client creates nothing more: a waitForInitialCreate waits no more. */
        @Override
        public void clientClosing() {
            synchronized (PersistentNode.this) {
                PersistentNode.this.notifyAll();
            }
        }
    };

    // guarded by this
    private State state = State.LATENT;
    private byte[] data;
    /** Counts setData calls: the data on the node is known to be that of {@link #confirmedGeneration}. */
    private long generation;
    private long confirmedGeneration = -1;
    /** Creation zxid of the node the confirmed data is on (a node made again by someone else needs it again). */
    private long confirmedCzxid = -1;
    /** The data the node was last given (null before the first create): what refused data gives way to. */
    private byte[] confirmedData;
    /** The generation the step in flight writes. */
    private long attemptedGeneration = -1;
    /** Whether the node was put in place once ({@link #waitForInitialCreate}). */
    private boolean created;
    /**
     * Why the node cannot be created, until that changes: data too large for the servers (until
     * {@link #setData} gives other data) or an ephemeral parent (until it is gone).
     */
    private BatonException refusal;
    private String actualPath;
    private final List<Waiter> waiters = new ArrayList<>();
    private final SerialLoop loop;

    /**
     * A node at {@code path} (for a sequential mode, the prefix of its name) in {@code mode},
     * with protection ({@code _c_<uuid>-} before its name) if {@code useProtection}.
     *
     * @param client the client the node is kept through
     * @param mode ephemeral, persistent, container or sequential; not a TTL mode
     * @param useProtection whether to create it with the framework's protected create (Curator's {@code _c_<uuid>-} prefix)
     * @param path the node's path, or for a sequential mode the path of its name's prefix
     * @param data the data the node is created with (copied)
     * @throws IllegalArgumentException for a TTL mode (a TTL node is kept alive by {@link PersistentTtlNode})
     * @throws dev.baton.framework.InvalidPathException for a path ZooKeeper would refuse
     */
    public PersistentNode(BatonClient client, CreateMode mode, boolean useProtection, String path, byte[] data) {
        this(client, mode, useProtection, path, data, true);
    }

    PersistentNode(BatonClient client, CreateMode mode, boolean useProtection, String path, byte[] data, boolean deleteOnClose) {
        this.client = Objects.requireNonNull(client, "client");
        this.mode = Objects.requireNonNull(mode, "mode");
        if (mode.isTTL()) {
            throw new IllegalArgumentException("PersistentNode keeps a node alive by re-creating it; a TTL node ("
                + mode + ") is kept alive by touching it: use PersistentTtlNode");
        }
        this.useProtection = useProtection;
        this.basePath = ZPaths.validate("PersistentNode", Objects.requireNonNull(path, "path"));
        this.data = Objects.requireNonNull(data, "data").clone();
        this.deleteOnClose = deleteOnClose;
        this.loop = new SerialLoop(client.asyncExecutor(), this::step, this::failed);
    }

    /**
     * Starts creating the node, in the background.
     *
     * @throws IllegalStateException if started or closed before
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws ClientClosedException if the client is closed
     */
    public void start() {
        synchronized (this) {
            if (state != State.LATENT) {
                throw new IllegalStateException("PersistentNode " + basePath + " was already " + (state == State.STARTED ? "started" : "closed"));
            }
            // unstarted, the node would wait for a connection that a client never started never makes
            client.requireStarted("start PersistentNode", basePath);
            state = State.STARTED;
        }
        client.addConnectionStateListener(connectionListener);
        kick();
    }

    /**
     * Waits until the node was first put in place.
     *
     * @param timeout how long to wait at most
     * @return true once the node was put in place, false if {@code timeout} passed first
     * @throws DataTooLargeException if the servers cannot take the node's data (larger than their
     *     request limit, {@code jute.maxbuffer}): the node is not created until {@link #setData} gives data that fits
     * @throws NoChildrenForEphemeralsException if the node's parent (or the nearest existing ancestor,
     *     when parents are missing) is an ephemeral node, which the message names: the node is created once it is gone
     * @throws IllegalStateException if not started yet (call {@link #start()} first), or closed before the node was created
     * @throws ClientClosedException if the client is closed (before or while it waits) before the node was created:
     *     the wait ends then, not at {@code timeout}
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public boolean waitForInitialCreate(Duration timeout) throws InterruptedException {
        Deadline deadline = Deadline.afterNonNegative(timeout, client.ticker());
        synchronized (this) {
            while (!created) {
                if (client.isClosed()) {   // nothing can create it any more
                    throw new ClientClosedException("wait for the initial create of PersistentNode", basePath);
                }
                if (state != State.STARTED) {   // nothing would ever create it
                    throw new IllegalStateException("PersistentNode " + basePath + (state == State.LATENT
                        ? " is not started: call start() first" : " was closed before it was created"));
                }
                if (refusal != null) {
                    throw refusal;
                }
                long nanos = deadline.remaining().toNanos();
                if (nanos <= 0) {
                    return false;
                }
                // managed: the create this waits for completes on the client's fork-join pool, where a
                // caller's continuation may be waiting here (AsyncContinuationTest)
                Blocking.managed(() -> {
                    TimeUnit.NANOSECONDS.timedWait(this, nanos);
                    return null;
                });
            }
            return true;
        }
    }

    /**
     * The node's actual path.
     *
     * @return the path as created (with protection prefix and sequence number), or null before the first create
     */
    public synchronized String getActualPath() {
        return actualPath;
    }

    /**
     * The data the node is kept with.
     *
     * @return a copy of the latest data given to the node
     */
    public synchronized byte[] getData() {
        return data.clone();
    }

    /**
     * Gives the node new data, and returns once the node carries it. Before {@link #start()} it
     * only replaces the data the node will be created with.
     *
     * @param newData the node's new data (copied)
     * @throws InterruptedException if the calling thread is interrupted while the data is written (it is kept all the same)
     * @throws DataTooLargeException if the data is larger than the servers take in one request: it
     *     is refused, and the node keeps (and is created again with) the data it had
     * @throws NoChildrenForEphemeralsException if the node's parent (or nearest existing ancestor) is
     *     an ephemeral node, which the message names: the data is kept, and the node created with it once that node is gone
     * @throws BatonException if the data cannot be written now (no connection within the client's
     *     connection timeout, ...): it is kept all the same, and written once the node can be reached
     * @throws IllegalStateException if closed
     */
    public void setData(byte[] newData) throws InterruptedException {
        CompletableFuture<Void> written = setDataAsync(newData);
        try {
            written.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw Failures.rethrow(e.getCause());
        }
    }

    /**
     * {@link #setData} without blocking a thread.
     *
     * @param newData the node's new data (copied)
     * @return completes once the node carries the data, or with the failure that kept it from it for now
     * @throws IllegalStateException if closed
     */
    public CompletableFuture<Void> setDataAsync(byte[] newData) {
        byte[] copy = Objects.requireNonNull(newData, "data").clone();
        CompletableFuture<Void> written = new CompletableFuture<>();
        synchronized (this) {
            if (state == State.CLOSED) {
                throw new IllegalStateException("PersistentNode " + basePath + " is closed");
            }
            data = copy;
            generation++;
            refusal = null;
            if (state == State.LATENT) {
                return CompletableFuture.completedFuture(null);
            }
            waiters.add(new Waiter(generation, written));
        }
        kick();
        return written;
    }

    /**
     * Adds a listener told of every (re)creation of the node from now on.
     *
     * @param listener the listener
     */
    public void addListener(PersistentNodeListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Removes a listener added with {@link #addListener}; no effect if it is not there.
     *
     * @param listener the listener
     */
    public void removeListener(PersistentNodeListener listener) {
        listeners.remove(listener);
    }

    /**
     * Stops keeping the node and deletes it (a container kept for a {@link PersistentTtlNode} is
     * left to its TTL). Returns once the node is deleted; without a connection it returns at once,
     * and the deletion is done in the background once the client is back (an ephemeral node may go
     * with its session first).
     */
    @Override
    public void close() {
        CompletableFuture<Void> quiet;
        List<Waiter> abandoned;
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            boolean started = state == State.STARTED;
            state = State.CLOSED;
            notifyAll();    // a waitForInitialCreate waits no more
            if (!started) {
                return;
            }
            quiet = loop.stop();
            abandoned = List.copyOf(waiters);
            waiters.clear();
        }
        client.removeConnectionStateListener(connectionListener);
        abandoned.forEach(w -> w.written().completeExceptionally(new IllegalStateException("PersistentNode " + basePath
            + " was closed before its data was written")));
        if (!deleteOnClose || client.isClosed()) {
            return;
        }
        // without a connection the delete cannot finish soon: waiting would only sit out the
        // client's connection timeout, so it is left to the background (guaranteed: done once back)
        boolean connected = client.connectionState().isConnected();
        // a create still in flight must land before the delete, or it would outlive close()
        CompletableFuture<Void> deleted = quiet.handle((v, e) -> getActualPath())
            .thenCompose(path -> path == null ? CompletableFuture.<Void>completedFuture(null)
                : client.delete().guaranteed().quietly().forPathAsync(path));
        if (connected) {
            Futures.awaitDelete(deleted, "PersistentNode " + basePath);
        }
    }

    // ---- the loop: one step at a time, again after each event ----

    private void kick() {
        synchronized (this) {
            if (state != State.STARTED) {
                return;
            }
        }
        loop.request();
    }

    private CompletableFuture<Void> step() {
        String path;
        byte[] bytes;
        long gen;
        synchronized (this) {
            if (state != State.STARTED) {
                return CompletableFuture.completedFuture(null);
            }
            path = actualPath;
            bytes = data;
            gen = generation;
            attemptedGeneration = gen;
        }
        if (path == null) {
            CreateBuilder create = client.create().withMode(mode).creatingParentContainersIfNeeded();
            if (useProtection) {
                create.withProtection();
            }
            return place(create, basePath, bytes, gen);
        }
        return client.checkExists().usingWatcher(watcher).forPathAsync(path).thenCompose(stat -> {
            if (stat == null) {
                // gone: made again under the same name, so a sequential node keeps its place
                return place(client.create().withMode(withoutSequence(mode)).creatingParentContainersIfNeeded(), path, bytes, gen);
            }
            if (needsData(stat, gen)) {
                return client.setData().forPathAsync(path, bytes)
                    .thenAccept(written -> placed(path, written, bytes, gen, false))
                    .exceptionally(e -> onlyIfGone(e));
            }
            return CompletableFuture.completedFuture(null);
        });
    }

    /** Creates the node, or takes it over if it is there already; the next step watches it. */
    private CompletableFuture<Void> place(CreateBuilder create, String path, byte[] bytes, long gen) {
        return create.forPathWithStatAsync(path, bytes)
            .thenAccept(node -> placed(node.path(), node.stat(), bytes, gen, true))
            .exceptionallyCompose(e -> {
                if (Failures.unwrap(e) instanceof NodeExistsException) {
                    return client.setData().forPathAsync(path, bytes)
                        .thenAccept(stat -> placed(path, stat, bytes, gen, true))
                        .exceptionally(gone -> onlyIfGone(gone));
                }
                return CompletableFuture.failedFuture(Failures.unwrap(e));
            });
    }

    /** A node that went between two calls of a step: the next step makes it again. */
    private Void onlyIfGone(Throwable e) {
        if (Failures.unwrap(e) instanceof NoNodeException) {
            loop.request();
            return null;
        }
        throw Failures.rethrow(e);
    }

    private synchronized boolean needsData(Stat stat, long gen) {
        return stat.getCzxid() != confirmedCzxid || confirmedGeneration < gen;
    }

    /** The node at {@code path} carries {@code bytes}, the data of {@code gen}; the next step watches it. */
    private void placed(String path, Stat stat, byte[] bytes, long gen, boolean made) {
        List<Waiter> done = new ArrayList<>();
        synchronized (this) {
            actualPath = path;
            confirmedCzxid = stat.getCzxid();
            if (gen >= confirmedGeneration) {
                confirmedGeneration = gen;
                confirmedData = bytes;
            }
            waiters.removeIf(w -> w.generation() <= confirmedGeneration && done.add(w));
            this.created = true;
            refusal = null;
            notifyAll();
        }
        loop.request(); // the next step watches the node
        done.forEach(w -> w.written().complete(null));
        if (made) {
            for (PersistentNodeListener listener : listeners) {
                client.eventExecutor().execute(() -> {
                    try {
                        listener.nodeCreated(path);
                    } catch (RuntimeException e) {
                        LOG.warn("PersistentNode {}: a listener failed", path, e);
                    }
                });
            }
        }
    }

    private void failed(Throwable error) {
        Throwable cause = Failures.unwrap(error);
        List<Waiter> told;
        synchronized (this) {
            if (state != State.STARTED) {
                return;
            }
            told = List.copyOf(waiters);
            waiters.clear();
        }
        RuntimeException failure = Failures.rethrow(cause);
        if (cause instanceof NoChildrenForEphemeralsException && !client.isClosed()) {
            // the waiters are told which node is ephemeral once it is found, as waitForInitialCreate is
            findEphemeralAncestor(ZPaths.parent(basePath), told, failure);
            return;
        }
        told.forEach(w -> w.written().completeExceptionally(failure));
        if (client.isClosed() || cause instanceof ClientClosedException) {
            return;
        }
        if (cause instanceof DataTooLargeException tooLarge) {
            refuse(tooLarge);
            return;
        }
        if (Failures.isConnectionTrouble(cause)) {
            LOG.debug("PersistentNode {}: {}; again once connected", basePath, cause.toString());
        } else {
            LOG.warn("PersistentNode {}: {}; trying again in {}", basePath, cause.toString(), RETRY_AFTER_FAILURE);
        }
        retryLater();
    }

    /**
     * The servers cannot take the data: trying again cannot help. Data given since is tried by the
     * loop's next run; otherwise the node keeps the data it was last given, or, never created, waits
     * for data that fits.
     */
    private void refuse(DataTooLargeException tooLarge) {
        synchronized (this) {
            if (attemptedGeneration != generation) {
                return;     // newer data came meanwhile: the loop runs again with it
            }
            if (confirmedData == null) {
                refusal = tooLarge;
                notifyAll();
                LOG.warn("PersistentNode {}: not created: {}", basePath, tooLarge.getMessage());
                return;
            }
            data = confirmedData;
            confirmedGeneration = generation;
        }
        LOG.warn("PersistentNode {}: new data refused ({}); the node keeps its data", basePath, tooLarge.getMessage());
        kick();     // look at the node again: it may have gone while the data was refused
    }

    /**
     * A create under an ephemeral node: retrying cannot help while it is there. Looks for it from
     * {@code path} up (parents may be missing), watching each node looked at, so its deletion (or
     * a missing parent's creation) runs the loop again; until then waiters are told which node it is.
     * The {@code told} setData calls fail with that, or with the create's {@code failure} if no
     * ephemeral node is found.
     */
    private void findEphemeralAncestor(String path, List<Waiter> told, RuntimeException failure) {
        client.checkExists().usingWatcher(watcher).forPathAsync(path).whenComplete((stat, e) -> {
            if (stat == null && e == null && !path.equals("/")) {
                findEphemeralAncestor(ZPaths.parent(path), told, failure);
                return;
            }
            if (e != null || stat == null || !NodeOwner.isEphemeral(stat)) {
                // no answer, or no ephemeral node there any more (changed since the create)
                told.forEach(w -> w.written().completeExceptionally(failure));
                LOG.debug("PersistentNode {}: {}; trying again in {}", basePath, (e == null ? failure : Failures.unwrap(e)).toString(),
                    RETRY_AFTER_FAILURE);
                retryLater();
                return;
            }
            EphemeralParentException why = new EphemeralParentException(basePath, path);
            told.forEach(w -> w.written().completeExceptionally(why));
            synchronized (this) {
                if (state != State.STARTED) {
                    return;
                }
                refusal = why;
                notifyAll();
            }
            // not the field: a setData may clear it before this line
            LOG.warn("PersistentNode {}: not created: {}", basePath, why.getMessage());
        });
    }

    private void retryLater() {
        CompletableFuture.delayedExecutor(RETRY_AFTER_FAILURE.toMillis(), TimeUnit.MILLISECONDS, client.asyncExecutor())
            .execute(this::kick);
    }

    /** The create failed because {@code parent}, an ancestor of the node, is an ephemeral node. */
    private static final class EphemeralParentException extends NoChildrenForEphemeralsException {
        private static final long serialVersionUID = 1L;

        EphemeralParentException(String path, String parent) {
            super("create", path, parent + " is an ephemeral node, and ephemeral nodes cannot have children;"
                + " the node is created once " + parent + " is gone", null);
        }
    }

    private void onWatchEvent(WatchedEvent event) {
        if (event.getType() != Watcher.Event.EventType.None) {
            kick();
        }
    }

    private static CreateMode withoutSequence(CreateMode mode) {
        return switch (mode) {
            case PERSISTENT_SEQUENTIAL -> CreateMode.PERSISTENT;
            case EPHEMERAL_SEQUENTIAL -> CreateMode.EPHEMERAL;
            case PERSISTENT_SEQUENTIAL_WITH_TTL -> CreateMode.PERSISTENT_WITH_TTL;
            case PERSISTENT, EPHEMERAL, CONTAINER, PERSISTENT_WITH_TTL -> mode;
        };
    }

    @Override
    public String toString() {
        return "PersistentNode[" + basePath + ", " + mode + (useProtection ? ", protected" : "") + ", at " + getActualPath() + "]";
    }
}

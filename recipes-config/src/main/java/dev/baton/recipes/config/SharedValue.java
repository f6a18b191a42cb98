package dev.baton.recipes.config;

import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.ZPaths;
import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.SnapshotCache;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A value every process sees, kept in one znode: Curator's {@code SharedValue}, same node and
 * bytes (the path itself holds the value), so Curator and Baton processes share it.
 *
 * <p>Algorithm: {@link #start()} creates the node with the seed value if it does not exist (its
 * folders as containers), reads it, and keeps a {@link SnapshotCache} of the node alone (no fence,
 * {@link SnapshotCache.Builder#rootOnly() rootOnly}) on it: its books
 * and the read of each change are kept on ZooKeeper's event thread, so a change costs a watcher
 * one event, one read and one hand-off, to the client's event executor, where the listeners run
 * (a node cache there took three hand-offs per change). Reads are local.
 * {@link #setValue} writes at any version; {@link #trySetValue} writes only if the node is still
 * at the version of the value the caller read, the compare-and-set for read-modify-write.
 *
 * <p>Guarantees and caveats. The local value only moves forward (by the node's modification
 * zxid), across reconnects and session expiries (the cache reloads). Listeners may miss
 * intermediate values, never the last. If the node is deleted, the last value stays; the next
 * {@link #setValue} creates it again. Nodes below the value's node are no part of the value (nor
 * of Curator's layout): the cache neither reads nor keeps them, so their number costs nothing and
 * one this client may not read (another user's ACL) does not stop the value; its persistent watch
 * of the node alone (not recursive) hears nothing of their changes.
 *
 * <pre>{@code
 * SharedValue banner = new SharedValue(client, "/app/banner", "welcome".getBytes(UTF_8));
 * banner.start();
 * VersionedValue<byte[]> seen = banner.getVersionedValue();
 * boolean mine = banner.trySetValue(seen, "maintenance at 22:00".getBytes(UTF_8));
 * }</pre>
 */
public final class SharedValue implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SharedValue.class);

    private enum State { LATENT, STARTED, CLOSED }

    /** The value as last read, with the node's identity and position in time. */
    private record Current(int version, byte[] value, long czxid, long mzxid) {
        boolean olderThan(Stat stat) {
            return stat.getCzxid() > czxid || (stat.getCzxid() == czxid && stat.getMzxid() > mzxid);
        }
    }

    private final BatonClient client;
    private final String kind;
    private final String path;
    private final byte[] seed;
    private final SnapshotCache cache;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final AtomicReference<Current> current;
    private final List<SharedValueListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * A shared value (Curator's layout: the node's data, as is).
     *
     * @param client the client it reads and writes with
     * @param path the value's node
     * @param seedValue written if the node does not exist at start
     */
    public SharedValue(BatonClient client, String path, byte[] seedValue) {
        this("SharedValue", client, path, seedValue);
    }

    /** A shared value that names itself {@code kind} in its errors: the recipe the caller built. */
    SharedValue(String kind, BatonClient client, String path, byte[] seedValue) {
        this.kind = kind;
        this.client = Objects.requireNonNull(client, "client");
        this.path = ZPaths.validateRecipePath(kind, path);
        this.seed = Objects.requireNonNull(seedValue, "seedValue").clone();
        this.current = new AtomicReference<>(new Current(VersionedValue.ABSENT, seed, -1, -1));
        this.cache = SnapshotCache.builder(client, path).rootOnly().build();
        cache.addListener(this::onSnapshot);
    }

    /**
     * Creates the node with the seed if it is missing, reads it, and starts watching it. If it
     * throws, the value is left unstarted, and {@code start()} may be called again once the cause is
     * mended (an ephemeral parent gone, say); on a closed client every try fails the same way.
     *
     * @throws IllegalStateException if it was started before
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws dev.baton.framework.ClientClosedException if the client is closed
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public void start() throws InterruptedException {
        if (!client.isClosed()) {   // a closed client is refused by the create below, as before
            // refused here, not by the create below: this value stays unstarted, so it can start once the client has
            client.requireStarted("start " + kind, path);
        }
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException(kind + " " + path + " was already started (state " + state.get() + ")");
        }
        boolean started = false;
        try {
            try {
                client.create().creatingParentContainersIfNeeded().forPath(path, seed);
            } catch (NodeExistsException e) {
                // someone else seeded it: their value stands
            }
            readValue();
            cache.start();
            started = true;
        } finally {
            if (!started) {
                // not "already started" for good: a failed start leaves nothing running (a close meanwhile stands)
                state.compareAndSet(State.STARTED, State.LATENT);
            }
        }
    }

    /**
     * The value as last seen.
     *
     * @return a copy of the value
     */
    public byte[] getValue() {
        return current.get().value().clone();
    }

    /**
     * The value as last seen, with the node's version: hand it to {@link #trySetValue}.
     *
     * @return a copy of the value, and its version
     */
    public VersionedValue<byte[]> getVersionedValue() {
        Current c = current.get();
        return new VersionedValue<>(c.version(), c.value().clone());
    }

    /**
     * Sets the value whatever it was (creating the node if it was deleted).
     *
     * @param newValue the value
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public void setValue(byte[] newValue) throws InterruptedException {
        requireStarted();
        byte[] value = Objects.requireNonNull(newValue, "newValue").clone();
        Stat stat;
        try {
            stat = client.setData().forPath(path, value);
        } catch (NoNodeException e) {
            stat = client.create().creatingParentContainersIfNeeded().forPathWithStat(path, value).stat();
        }
        update(stat, value);
        client.observer().configWritten("shared-value", path, true);
    }

    /**
     * Sets the value only if it is still {@code previous} (same version and bytes as this object
     * last saw, and the node still at that version on the servers).
     *
     * @param previous the value and version as read with {@link #getVersionedValue()}
     * @param newValue the value to set
     * @return false if the value changed since {@code previous}; {@link #getValue()} then shows a newer value
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public boolean trySetValue(VersionedValue<byte[]> previous, byte[] newValue) throws InterruptedException {
        requireStarted();
        Objects.requireNonNull(previous, "previous");
        byte[] value = Objects.requireNonNull(newValue, "newValue").clone();
        Current c = current.get();
        if (previous.version() != c.version() || !Arrays.equals(previous.value(), c.value())) {
            client.observer().configWritten("shared-value", path, false); // lost the race before sending: still a conflict
            return false;
        }
        try {
            update(client.setData().withVersion(previous.version()).forPath(path, value), value);
            client.observer().configWritten("shared-value", path, true);
            return true;
        } catch (BadVersionException | NoNodeException e) {
            client.observer().configWritten("shared-value", path, false);
            readValue();
            return false;
        }
    }

    /**
     * Tells {@code listener} of each new value.
     *
     * @param listener told on the client's event executor, in order
     */
    public void addListener(SharedValueListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Stops telling {@code listener}.
     *
     * @param listener a listener added before (anything else is ignored)
     */
    public void removeListener(SharedValueListener listener) {
        listeners.remove(listener);
    }

    /**
     * The node's path.
     *
     * @return its absolute path
     */
    public String path() {
        return path;
    }

    /** Stops watching. The last value stays readable. */
    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) == State.STARTED) {
            cache.close();
        }
        listeners.clear();
    }

    private void readValue() throws InterruptedException {
        try {
            NodeData d = client.getData().forPathWithStat(path);
            update(d.stat(), d.data());
        } catch (NoNodeException e) {
            // deleted meanwhile: keep the last value
        }
    }

    /** Takes {@code value} if it is newer than what is held; returns whether it was. */
    private boolean update(Stat stat, byte[] value) {
        while (true) {
            Current c = current.get();
            if (c.czxid() >= 0 && !c.olderThan(stat)) {
                return false;
            }
            if (current.compareAndSet(c, new Current(stat.getVersion(), value, stat.getCzxid(), stat.getMzxid()))) {
                return true;
            }
        }
    }

    private void onSnapshot(SnapshotCache.Snapshot previous, SnapshotCache.Snapshot published, Set<String> changed) {
        ChildData node = published.nodes().get(path);
        if (state.get() != State.STARTED || node == null || !changed.contains(path)) {
            return;
        }
        update(node.stat(), node.data());
        client.observer().configChangeSeen("shared-value", path);
        byte[] value = getValue();
        for (SharedValueListener listener : listeners) {
            try {
                listener.valueHasChanged(this, value);
            } catch (RuntimeException e) {
                LOG.error("{} {}: a listener threw; it still hears later values", kind, path, e);
            }
        }
    }

    private void requireStarted() {
        if (state.get() != State.STARTED) {
            throw new IllegalStateException(kind + " " + path + " is " + state.get() + ": call start() first");
        }
    }
}

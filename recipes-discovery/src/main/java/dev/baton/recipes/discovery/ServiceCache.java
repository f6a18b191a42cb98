package dev.baton.recipes.discovery;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.Deadline;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.cache.CacheEvent;
import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.TreeCache;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local, always-current list of one service's instances, for reading without a round trip.
 *
 * <p>Algorithm: a framework {@link TreeCache} of depth 1 on {@code <basePath>/<name>} (one
 * persistent recursive watch) reports each instance node added, changed or removed; the cache
 * decodes that one node and publishes a new immutable {@link Instances} snapshot, ordered by node
 * name. Readers only read the snapshot (one volatile read, no lock, no copy).
 *
 * <p>Guarantees and caveats: the snapshot lags the servers by the watch delivery and one read
 * (about a round trip). While the client is disconnected the snapshot keeps its last content
 * (which can include instances that have since gone); after a reconnect, and after a session
 * expiry, the tree cache reloads the whole service and the snapshot converges, with listeners
 * told of the difference. A node whose data is not a readable instance (garbage, oversized, a
 * payload of another type) is left out with a warning and does not disturb the rest.
 *
 * <pre>{@code
 * ServiceCache<Endpoint> cache = discovery.serviceCacheBuilder().name("orders").build();
 * cache.addListener(() -> log.info("orders now: {}", cache.getInstances()));
 * cache.start();   // returns after the first load (at once without a connection: it loads when one comes)
 * }</pre>
 *
 * @param <T> the payload type
 */
public final class ServiceCache<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceCache.class);

    private final BatonClient client;
    private final String name;
    private final String path;
    private final InstanceJson<T> json;
    private final TreeCache tree;
    private final Duration startTimeout;
    private final Consumer<? super ServiceCache<T>> onClose;
    private final List<ServiceCacheListener> listeners = new CopyOnWriteArrayList<>();
    /** Set once by the first load, read by the load wait. */
    private volatile boolean loaded;
    /** Wakes {@link #awaitLoaded}: bumped at the first load (the client's close wakes it too). */
    private final ChangeSignal loadedOrClosed = new ChangeSignal();
    private final Map<String, ServiceInstance<T>> byNode = new TreeMap<>();
    private volatile Instances<T> current = Instances.empty();
    private final Lifecycle life;

    ServiceCache(BatonClient client, String path, String name, InstanceJson<T> json, Executor executor, Duration startTimeout,
                 Consumer<? super ServiceCache<T>> onClose) {
        this.client = client;
        this.name = name;
        this.life = new Lifecycle(this, "service cache of '" + name + "'");
        this.path = path;
        this.json = json;
        TreeCache.Builder builder = TreeCache.builder(client, path).maxDepth(1);
        this.tree = (executor == null ? builder : builder.executor(executor)).build();
        this.startTimeout = startTimeout;
        this.onClose = onClose;
    }

    /**
     * Starts watching and, while the client is connected, waits for the first load.
     *
     * <p>Without a connection it returns at once, empty: the cache loads when the client connects
     * (a service booting during a ZooKeeper outage still comes up). {@link #awaitLoaded} is the
     * waiting form, for a caller that wants the first load whatever it takes. A connection lost
     * while it waits does not fail it either: it waits until the load ends or the start timeout
     * passes, and returns (the cache loads once the client reconnects). A close of the client while it
     * waits ends it at once, with {@link ClientClosedException} (the cache is then closed).
     *
     * @throws DiscoveryException if, connected, the first load does not finish within the start
     *     timeout (the cache is then closed)
     * @throws IllegalStateException if already started or closed
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws ClientClosedException if the client is closed, or closes while it waits for the first load
     * @throws InterruptedException if the calling thread is interrupted while it waits for the first load
     */
    public void start() throws InterruptedException {
        startInBackground();
        if (!client.connectionState().isConnected()) {
            return;
        }
        boolean inTime;
        try {
            inTime = awaitLoaded(startTimeout);
        } catch (ClientClosedException e) {
            close();
            throw e;
        }
        if (!inTime && client.connectionState().isConnected()) {
            close();
            throw new DiscoveryException("service cache of '" + name + "' (" + path + ") did not load within " + startTimeout
                + " although the client is connected");
        }
    }

    /**
     * Throws ClientNotStartedException for {@code operation} if the client was never started: the
     * cache would stay empty, waiting for a connection such a client never makes. Checked before
     * anything starts, so the same cache (or provider) starts once the client has.
     */
    void refuseUnstartedClient(String operation) {
        if (!client.isClosed()) {   // a closed client is refused by the tree cache, as before
            client.requireStarted(operation, path);
        }
    }

    /** Starts watching without waiting for the first load. */
    void startInBackground() {
        refuseUnstartedClient("start the service cache");
        life.start(Lifecycle.State.STARTED);
        tree.addListener(this::onEvent);
        try {
            tree.start();
        } catch (ClientClosedException e) {
            close();
            throw e;
        }
    }

    /**
     * Waits for the first load; false if {@code timeout} passed first. A close of the client ends
     * the wait at once: a closed client never loads the cache.
     *
     * @param timeout how long to wait at most
     * @return whether the first load is done
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws ClientClosedException if the client is closed (before or while it waits) and the cache has not loaded
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean awaitLoaded(Duration timeout) throws InterruptedException {
        return loadedOrClosed.awaitUnlessClosed(client, () -> loaded, Deadline.afterNonNegative(timeout, client.ticker()),
            "wait for the first load of the service cache of '" + name + "'", path);
    }

    /**
     * {@return the service's instances as last seen, in node-name order (all of them, disabled ones too);
     * after {@code close()}, those it saw last}
     *
     * @throws IllegalStateException if the cache was never started (an empty list would look like a
     *     service without instances)
     */
    public List<ServiceInstance<T>> getInstances() {
        life.requireStartedOnce();
        return current.asList();
    }

    /**
     * The same, as the snapshot providers choose from.
     *
     * @return the service's instances as last seen, as the snapshot providers choose from
     * @throws IllegalStateException if the cache was never started
     */
    public Instances<T> instances() {
        life.requireStartedOnce();
        return current;
    }

    /** {@return the service this cache follows} */
    public String name() {
        return name;
    }

    /**
     * Adds a listener, told of every later change.
     *
     * @param listener the listener to add
     */
    public void addListener(ServiceCacheListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Removes a listener; it hears nothing more.
     *
     * @param listener the listener to remove
     */
    public void removeListener(ServiceCacheListener listener) {
        listeners.remove(listener);
    }

    /** Stops watching; the last snapshot stays readable. */
    @Override
    public void close() {
        if (!life.close()) {
            return;
        }
        tree.close();
        onClose.accept(this);
    }

    private void onEvent(CacheEvent event) {
        boolean changed;
        synchronized (this) {
            if (life.isClosed()) {
                return;
            }
            changed = switch (event.type()) {
                case ADDED, UPDATED -> apply(event.node());
                case REMOVED -> !isRoot(event.node()) && byNode.remove(event.node().name()) != null;
                case INITIALIZED -> false;
            };
            if (changed) {
                current = Instances.of(byNode.values());
            }
        }
        if (changed || event.type() == CacheEvent.Type.INITIALIZED) {
            client.observer().serviceInstancesSeen(name, current.size());
        }
        if (event.type() == CacheEvent.Type.INITIALIZED) {
            loaded = true;
            loadedOrClosed.bump();
        } else if (changed && loaded) {
            for (ServiceCacheListener listener : listeners) {
                try {
                    listener.cacheChanged();
                } catch (RuntimeException e) {
                    LOG.error("service cache of '{}': a listener threw; it stays registered", name, e);
                }
            }
        }
    }

    /** Applies an added or changed node; returns whether the instances changed. Call with the lock held. */
    private boolean apply(ChildData node) {
        if (isRoot(node)) {
            return false;
        }
        ServiceInstance<T> decoded = json.decodeOrWarn(node.path(), node.data());
        if (decoded == null) {
            return byNode.remove(node.name()) != null;
        }
        return !decoded.equals(byNode.put(node.name(), decoded));
    }

    private boolean isRoot(ChildData node) {
        return node == null || node.path().equals(path);
    }

    /** What this cache's service reports to: its client's observer. */
    BatonObserver observer() {
        return client.observer();
    }

    @Override
    public String toString() {
        return "ServiceCache{" + name + " " + current.size() + " instances}";
    }
}

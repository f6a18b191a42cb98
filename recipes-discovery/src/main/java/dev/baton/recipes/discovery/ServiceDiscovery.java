package dev.baton.recipes.discovery;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.Futures;
import dev.baton.framework.NodeData;
import dev.baton.framework.NoNodeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service registry on ZooKeeper: registers this process's instances and finds others',
 * Curator-compatible. Build one with {@link ServiceDiscoveryBuilder}.
 *
 * <p>Layout: each instance is a node {@code <basePath>/<serviceName>/<instanceId>} whose data is
 * the instance as JSON ({@code name, id, address, port, sslPort, payload, registrationTimeUTC,
 * serviceType, uriSpec, enabled}, plus {@code metadata}); DYNAMIC instances are ephemeral,
 * PERMANENT and STATIC ones persistent. A Curator 5.9 service on the same base path sees Baton's
 * instances and Baton sees Curator's. The payload is always bound to the declared payload class;
 * class names in the data are never used.
 *
 * <p>Guarantees and caveats: an ephemeral instance disappears when the client's session ends
 * (expiry, or a disconnection longer than the session timeout) and is registered again by itself
 * as soon as the client has a new session; in between, for up to the session timeout plus a
 * round trip, others do not see it. {@link #start()} does not need a connection: it returns
 * at once and its {@code thisInstance} is written when the client connects. Registering while
 * disconnected fails with {@code ConnectionLossException} but is not forgotten: the instance is
 * written at the next connection (unregister it to cancel). Queries go to ZooKeeper on each call; for frequent reads
 * use a {@link ServiceCache} or {@link ServiceProvider}. With {@link
 * ServiceDiscoveryBuilder#requireServices required services}, {@link #start()} checks (and can wait
 * for) them before registering. {@link #close()} removes this discovery's instances except
 * PERMANENT ones, and closes the caches and providers it built.
 *
 * <pre>{@code
 * ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class)
 *     .client(client).basePath("/services")
 *     .thisInstance(ServiceInstance.<Endpoint>builder().name("orders").port(8080).build())
 *     .requireServices("payments")
 *     .build();
 * discovery.start();   // fails with MissingDependencyException if "payments" has no instance
 * }</pre>
 *
 * @param <T> the payload type
 */
public final class ServiceDiscovery<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceDiscovery.class);
    /** The largest instance any writer may store (the builder's top maxInstanceBytes): one read per multi. */
    private static final int LARGEST_NODE_BYTES = 1024 * 1024;

    private final BatonClient client;
    private final String basePath;
    private final InstanceJson<T> json;
    private final Registrations<T> registrations;
    private final ServiceInstance<T> thisInstance;
    private final Set<String> requiredServices;
    private final Duration dependencyTimeout;
    private final boolean failOnMissingDependencies;
    private final Set<AutoCloseable> opened = ConcurrentHashMap.newKeySet();
    /**
     * Instance nodes a query found larger than this reader's maxInstanceBytes (written by a
     * service with a higher limit), by path: later queries read them alone, since a multi-read
     * sized for this reader's limit that holds a few of them can bring back more than the
     * client's packet limit and cost a connection drop. Pruned to the listing on each query.
     */
    private final Set<String> oversized = ConcurrentHashMap.newKeySet();
    private final Lifecycle life;

    ServiceDiscovery(BatonClient client, String basePath, InstanceJson<T> json, ServiceInstance<T> thisInstance,
                     Set<String> requiredServices, Duration dependencyTimeout, boolean failOnMissingDependencies) {
        this.client = client;
        this.basePath = basePath;
        this.life = new Lifecycle(this, "discovery of " + basePath);
        this.json = json;
        this.registrations = new Registrations<>(client, basePath, json);
        this.thisInstance = thisInstance;
        this.requiredServices = requiredServices;
        this.dependencyTimeout = dependencyTimeout;
        this.failOnMissingDependencies = failOnMissingDependencies;
    }

    /**
     * Starts re-registering after reconnections, checks the required services (waiting up to the
     * dependency timeout for them), then registers {@code thisInstance} if one was given. On any
     * failure the discovery is closed.
     *
     * <p>Without a connection it does not wait: {@code thisInstance} is kept and written as soon
     * as the client connects (a fleet restarting during a ZooKeeper outage comes up, and appears
     * in discovery when the ensemble is back); a connection lost during the write is handled the
     * same way. Required services are the exception, because they cannot be checked without the
     * ensemble: with no connection they count as missing, so a zero dependency timeout (the
     * default) fails at once, and a positive one waits that long for the connection and then
     * the services.
     *
     * @throws MissingDependencyException if a required service has no usable instance (or could
     *     not be checked for lack of a connection) and the builder says to fail (the default)
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws ClientClosedException if the client is closed, or closes while it waits for the
     *     required services (the wait ends then, not at the dependency timeout)
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void start() throws InterruptedException {
        // unstarted, thisInstance would wait for a connection that a client never started never makes
        client.requireStarted("start the service discovery", basePath);
        life.start(Lifecycle.State.STARTED);
        registrations.start();
        try {
            if (!requiredServices.isEmpty()) {
                Set<String> missing = new Dependencies<>(this, requiredServices).await(dependencyTimeout);
                boolean unseen = !client.connectionState().isConnected();
                if (!missing.isEmpty() && failOnMissingDependencies) {
                    throw unseen ? MissingDependencyException.unchecked(missing, basePath) : new MissingDependencyException(missing, basePath);
                }
                if (!missing.isEmpty()) {
                    LOG.warn("discovery {}: required services {}: {}", basePath,
                        unseen ? "could not be checked (no connection)" : "have no usable instance", missing);
                }
            }
            if (thisInstance != null) {
                registrations.registerWhenConnected(thisInstance);
            }
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
    }

    /**
     * Registers {@code instance} (again, if its id is registered already: the node is rewritten).
     *
     * @param instance the instance to register
     * @throws IllegalArgumentException if its JSON is larger than maxInstanceBytes, or its id is
     *     registered here for another service
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public void registerService(ServiceInstance<T> instance) throws InterruptedException {
        requireStarted();
        registrations.register(Objects.requireNonNull(instance, "instance"));
    }

    /**
     * Replaces the data of a registered instance (same id and name).
     *
     * @param instance the instance's new data
     * @throws DiscoveryException if the instance is not registered by this discovery
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public void updateService(ServiceInstance<T> instance) throws InterruptedException {
        requireStarted();
        registrations.update(Objects.requireNonNull(instance, "instance"));
    }

    /**
     * Sets a registered instance's {@link Health} (and {@code enabled = health == UP}); providers
     * stop or resume handing it out as soon as their caches see the change.
     *
     * @param instance a registered instance (its id counts)
     * @param health its new health
     * @return the instance as now registered
     * @throws DiscoveryException if the instance is not registered by this discovery
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public ServiceInstance<T> setHealth(ServiceInstance<T> instance, Health health) throws InterruptedException {
        requireStarted();
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(health, "health");
        ServiceInstance<T> registered = registrations.get(instance.id());
        ServiceInstance<T> updated = (registered != null ? registered : instance).toBuilder().health(health).build();
        registrations.update(updated);
        return updated;
    }

    /**
     * Removes {@code instance}'s registration and node (a missing node is not an error); false if it was not
     * registered here.
     *
     * @param instance the instance to remove (its id counts)
     * @return whether it was registered here
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public boolean unregisterService(ServiceInstance<T> instance) throws InterruptedException {
        requireStarted();
        return registrations.unregister(Objects.requireNonNull(instance, "instance").id());
    }

    /** {@return the instances this discovery has registered (and keeps registered)} */
    public List<ServiceInstance<T>> registeredInstances() {
        return registrations.instances();
    }

    /**
     * {@return the names of the services under the base path, sorted (a service whose last instance just went
     * may still be listed)}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public Collection<String> queryForNames() throws InterruptedException {
        requireOpen();
        try {
            return new TreeSet<>(client.getChildren().forPath(basePath));
        } catch (NoNodeException e) {
            return List.of();
        }
    }

    /**
     * {@return the readable instances of service {@code name}, in node-name order, read now from ZooKeeper}
     *
     * @param name the service's name
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    public Collection<ServiceInstance<T>> queryForInstances(String name) throws InterruptedException {
        requireOpen();
        String servicePath = pathFor(Names.segment("service name", name));
        List<String> children;
        try {
            children = new ArrayList<>(new TreeSet<>(client.getChildren().forPath(servicePath)));
        } catch (NoNodeException e) {
            return List.of();
        }
        List<String> paths = children.stream().map(child -> Names.join(servicePath, child)).toList();
        Set<String> listed = new HashSet<>(paths);
        oversized.removeIf(path -> path.startsWith(servicePath + "/") && !listed.contains(path));
        // one multi of reads per batch on servers that have it (3.6.0+), else one read per instance
        // sent together; an instance that went between the listing and the read is left out. The
        // batches are sized for instances of this reader's limit; those known to be larger are
        // read alone, and a batch that loses the connection on an unknown one is read node by node
        List<String> usual = paths.stream().filter(path -> !oversized.contains(path)).toList();
        List<String> alone = paths.stream().filter(oversized::contains).toList();
        CompletableFuture<Map<String, NodeData>> usualRead = client.getData().forPathsAsync(usual, json.maxBytes());
        CompletableFuture<Map<String, NodeData>> aloneRead = client.getData().forPathsAsync(alone, LARGEST_NODE_BYTES);
        Map<String, NodeData> read = new HashMap<>(Futures.await(usualRead));
        read.putAll(Futures.await(aloneRead));
        List<ServiceInstance<T>> found = new ArrayList<>();
        for (String path : paths) {
            NodeData node = read.get(path);
            if (node == null) {
                continue;
            }
            if (node.stat().getDataLength() > json.maxBytes()) {
                oversized.add(path);
            } else {
                oversized.remove(path);
            }
            ServiceInstance<T> instance = json.decodeOrWarn(path, node.data());
            if (instance != null) {
                found.add(instance);
            }
        }
        return found;
    }

    /**
     * {@return instance {@code id} of service {@code name}, or null if there is none (or its data is not a
     * readable instance)}
     *
     * @param name the service's name
     * @param id the instance's id
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public ServiceInstance<T> queryForInstance(String name, String id) throws InterruptedException {
        requireOpen();
        String path = Names.join(pathFor(Names.segment("service name", name)), Names.segment("instance id", id));
        try {
            return json.decodeOrWarn(path, client.getData().forPath(path));
        } catch (NoNodeException e) {
            return null;
        }
    }

    /**
     * {@return the required services (see the builder) that have no usable (enabled, UP) instance now,
     * sorted}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    public Set<String> missingDependencies() throws InterruptedException {
        return new Dependencies<>(this, requiredServices).missingNow();
    }

    /** {@return a builder of a load balancer over one service's instances, closed with this discovery} */
    public ServiceProviderBuilder<T> serviceProviderBuilder() {
        return new ServiceProviderBuilder<>(this);
    }

    /** {@return a builder of a local copy of one service's instances, closed with this discovery} */
    public ServiceCacheBuilder<T> serviceCacheBuilder() {
        return new ServiceCacheBuilder<>(this);
    }

    /** {@return the registry's root} */
    public String basePath() {
        return basePath;
    }

    /** {@return the client this discovery reads and writes with} */
    public BatonClient client() {
        return client;
    }

    /** Closes the providers and caches built here, and removes this discovery's instances except PERMANENT ones. */
    @Override
    public void close() {
        if (!life.close()) {
            return;
        }
        for (AutoCloseable c : List.copyOf(opened)) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("discovery {}: closing {} failed", basePath, c, e);
            }
        }
        registrations.close();
    }

    // ---- for the builders ----

    ServiceCache<T> newCache(String name, Executor executor, Duration startTimeout) {
        requireOpen();
        ServiceCache<T> cache = new ServiceCache<>(client, pathFor(name), name, json, executor, startTimeout, opened::remove);
        opened.add(cache);
        return cache;
    }

    /** A cache that the discovery does not close: its owner does. */
    ServiceCache<T> ownedCache(String name, Duration startTimeout) {
        return new ServiceCache<>(client, pathFor(name), name, json, null, startTimeout, c -> { });
    }

    ServiceProvider<T> newProvider(String name, ProviderStrategy<T> strategy, DownInstancePolicy policy,
                                   Predicate<? super ServiceInstance<T>> filter, LongSupplier ticker, Duration startTimeout) {
        requireOpen();
        ServiceProvider<T> provider = new ServiceProvider<>(name, ownedCache(name, startTimeout), strategy, policy, filter, ticker,
            opened::remove);
        opened.add(provider);
        return provider;
    }

    private String pathFor(String name) {
        return Names.join(basePath, name);
    }

    private void requireStarted() {
        life.requireStarted();
    }

    private void requireOpen() {
        life.requireOpen();
    }

    @Override
    public String toString() {
        return "ServiceDiscovery{" + basePath + " " + life.state() + "}";
    }
}

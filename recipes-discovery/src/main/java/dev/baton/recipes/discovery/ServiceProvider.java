package dev.baton.recipes.discovery;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Client-side load balancing over one service: {@link #getInstance()} picks an instance from a
 * local {@link ServiceCache} with a {@link ProviderStrategy}, without a round trip.
 *
 * <p>Algorithm: the provider keeps a "usable" snapshot — the cache's instances that are enabled,
 * UP, pass the builder's filter and are not taken out by the {@link DownInstancePolicy} — and
 * rebuilds it only when the cache publishes a new snapshot, when {@link #noteError} takes an
 * instance out, or when the earliest taken-out instance is due back. A call is therefore two
 * volatile reads, an identity comparison and the strategy's pick: no lock, no allocation.
 *
 * <p>Guarantees and caveats: the provider never returns a disabled, non-UP or taken-out instance
 * as of its snapshot; the snapshot lags the servers by about a round trip, and while the client
 * is disconnected it keeps its last content, so an instance that died meanwhile can still be
 * returned — callers should {@link #noteError} it and retry another. Returns null when no
 * instance is usable.
 *
 * <pre>{@code
 * try (ServiceProvider<Endpoint> orders = discovery.serviceProviderBuilder()
 *         .serviceName("orders")
 *         .providerStrategy(new RoundRobinStrategy<>())
 *         .build()) {
 *     orders.start();
 *     ServiceInstance<Endpoint> target = orders.getInstance();
 *     try { call(target.uri()); } catch (IOException e) { orders.noteError(target); }
 * }
 * }</pre>
 *
 * @param <T> the payload type
 */
public final class ServiceProvider<T> implements AutoCloseable {
    /** What getInstance chooses from, and when it must look again because a taken-out instance is due back. */
    private record View<T>(Instances<T> source, Instances<T> usable, long recheckAt) {
    }

    private final String serviceName;
    private final ServiceCache<T> cache;
    private final ProviderStrategy<T> strategy;
    /** The strategy's class name, a bounded tag for the observer (a lambda's generated name is not). */
    private final String strategyName;
    private final Predicate<? super ServiceInstance<T>> filter;
    private final LongSupplier ticker;
    private final DownInstances down;
    private final Consumer<? super ServiceProvider<T>> onClose;
    private volatile View<T> view = new View<>(null, Instances.empty(), DownInstances.NEVER);
    private final Lifecycle life;

    ServiceProvider(String serviceName, ServiceCache<T> cache, ProviderStrategy<T> strategy, DownInstancePolicy policy,
                    Predicate<? super ServiceInstance<T>> filter, LongSupplier ticker, Consumer<? super ServiceProvider<T>> onClose) {
        this.serviceName = serviceName;
        this.life = new Lifecycle(this, "provider of '" + serviceName + "'");
        this.cache = cache;
        this.strategy = strategy;
        String simple = strategy.getClass().getSimpleName();
        this.strategyName = simple.isEmpty() || strategy.getClass().isSynthetic() || simple.contains("$$") ? "custom" : simple;
        this.filter = filter;
        this.ticker = ticker;
        this.down = new DownInstances(policy);
        this.onClose = onClose;
    }

    /**
     * Starts the provider's cache and, while the client is connected, waits for its first load
     * (see {@link ServiceCache#start()}). Without a connection it returns at once and
     * {@link #getInstance()} returns null until the cache has loaded, once the client connects.
     *
     * @throws DiscoveryException if, connected, the cache does not load within its start timeout
     *     (the provider is then closed)
     * @throws dev.baton.framework.ClientNotStartedException if the client was never started (start
     *     it, then this: the provider stays unstarted)
     * @throws InterruptedException if the calling thread is interrupted while it waits for the first load
     */
    public void start() throws InterruptedException {
        cache.refuseUnstartedClient("start the service provider");
        life.start(Lifecycle.State.STARTING);
        try {
            cache.start();
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
        life.started();
    }

    /**
     * {@return an instance chosen by the strategy among the usable ones, or null if there is none}
     *
     * @throws IllegalStateException if the provider is not started or is closed
     */
    public ServiceInstance<T> getInstance() {
        Instances<T> usable = usable();
        ServiceInstance<T> picked = usable.isEmpty() ? null : strategy.getInstance(usable);
        cache.observer().instancePicked(serviceName, strategyName, picked != null);
        return picked;
    }

    /** {@return every usable instance (enabled, UP, passing the filter, not taken out), in node-name order} */
    public List<ServiceInstance<T>> getAllInstances() {
        return usable().asList();
    }

    /**
     * Reports that a call to {@code instance} failed; enough errors within the policy's window take
     * it out of this provider for the policy's down time.
     *
     * @param instance the instance a call to failed (its id counts)
     * @throws IllegalArgumentException if {@code instance} belongs to another service: ids are
     *     unique only within a service, so counting it would take out this service's instance of
     *     the same id
     */
    public void noteError(ServiceInstance<T> instance) {
        Objects.requireNonNull(instance, "instance");
        if (!serviceName.equals(instance.name())) {
            throw new IllegalArgumentException("noteError: instance '" + instance.id() + "' is of service '" + instance.name()
                + "', and this provider balances over '" + serviceName + "'; note it on that service's provider");
        }
        synchronized (this) {
            long now = ticker.getAsLong();
            boolean wasDown = down.isDown(instance.id(), now);
            if (down.noteError(instance.id(), now)) {
                if (!wasDown) {
                    cache.observer().instanceMarkedDown(serviceName);
                }
                refresh();
            }
        }
    }

    /** {@return the service this provider balances over} */
    public String serviceName() {
        return serviceName;
    }

    /** Stops the provider's cache. */
    @Override
    public void close() {
        if (!life.close()) {
            return;
        }
        cache.close();
        onClose.accept(this);
    }

    private Instances<T> usable() {
        life.requireStarted();
        View<T> v = view;
        // NEVER is compared first: nanoTime readings may be negative, so "now - NEVER" is not safe
        if (v.source() != cache.instances() || (v.recheckAt() != DownInstances.NEVER && ticker.getAsLong() - v.recheckAt() >= 0)) {
            v = refresh();
        }
        return v.usable();
    }

    private synchronized View<T> refresh() {
        long now = ticker.getAsLong();
        Instances<T> source = cache.instances();
        Set<String> out = down.down(now);
        Instances<T> usable = source.filter(i -> i.isAvailable() && !out.contains(i.id()) && filter.test(i));
        View<T> v = new View<>(source, usable, down.nextReturn(now));
        view = v;
        return v;
    }

    @Override
    public String toString() {
        return "ServiceProvider{" + serviceName + " " + view.usable().size() + " usable}";
    }
}

package dev.baton.recipes.discovery;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Configures a {@link ServiceCache}: {@code discovery.serviceCacheBuilder().name("orders").build()}.
 *
 * @param <T> the payload type
 */
public final class ServiceCacheBuilder<T> {
    /** How long {@link ServiceCache#start()} waits for the first load by default: 30 s. */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    private final ServiceDiscovery<T> discovery;
    private String name;
    private Executor executor;
    private Duration startTimeout = DEFAULT_START_TIMEOUT;

    ServiceCacheBuilder(ServiceDiscovery<T> discovery) {
        this.discovery = discovery;
    }

    /**
     * The service to follow. Required.
     *
     * @param name the service to follow
     * @return this builder
     */
    public ServiceCacheBuilder<T> name(String name) {
        this.name = Names.segment("service name", name);
        return this;
    }

    /**
     * Where listeners run (one at a time, in order). Default: the client's event executor. If it
     * refuses a call ({@code RejectedExecutionException}, a bounded pool that is full) while the
     * client is open, nothing is lost: the calls wait, in order, and are handed to it again until it
     * takes them (a WARN says so); only once the client is closed, or the executor is shut down, is
     * what it refused dropped. See docs/framework.md, "Threads".
     *
     * @param executor where listeners run (one at a time, in order)
     * @return this builder
     */
    public ServiceCacheBuilder<T> executor(Executor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
        return this;
    }

    /**
     * How long {@link ServiceCache#start()} waits for the first load. Default {@link #DEFAULT_START_TIMEOUT}.
     *
     * @param timeout how long {@link ServiceCache#start()} waits for the first load
     * @return this builder
     */
    public ServiceCacheBuilder<T> startTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "startTimeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("startTimeout must be positive, was " + timeout);
        }
        this.startTimeout = timeout;
        return this;
    }

    /** {@return a new, not yet started cache; closed with the discovery if not before} */
    public ServiceCache<T> build() {
        if (name == null) {
            throw new IllegalStateException("name is required: serviceCacheBuilder().name(\"orders\")");
        }
        return discovery.newCache(name, executor, startTimeout);
    }
}

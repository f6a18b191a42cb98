package dev.baton.recipes.discovery;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Configures a {@link ServiceProvider}:
 * {@code discovery.serviceProviderBuilder().serviceName("orders").providerStrategy(new RandomStrategy<>()).build()}.
 *
 * @param <T> the payload type
 */
public final class ServiceProviderBuilder<T> {
    private final ServiceDiscovery<T> discovery;
    private String serviceName;
    private ProviderStrategy<T> strategy = new RoundRobinStrategy<>();
    private DownInstancePolicy downInstancePolicy = DownInstancePolicy.DEFAULT;
    private Predicate<? super ServiceInstance<T>> filter = i -> true;
    private LongSupplier ticker = System::nanoTime;
    private Duration startTimeout = ServiceCacheBuilder.DEFAULT_START_TIMEOUT;

    ServiceProviderBuilder(ServiceDiscovery<T> discovery) {
        this.discovery = discovery;
    }

    /**
     * The service to balance over. Required.
     *
     * @param serviceName the service to balance over
     * @return this builder
     */
    public ServiceProviderBuilder<T> serviceName(String serviceName) {
        this.serviceName = Names.segment("service name", serviceName);
        return this;
    }

    /**
     * How to choose. Default: a new {@link RoundRobinStrategy}. A strategy keeps state: give each provider
     * its own.
     *
     * @param strategy how to choose
     * @return this builder
     */
    public ServiceProviderBuilder<T> providerStrategy(ProviderStrategy<T> strategy) {
        this.strategy = Objects.requireNonNull(strategy, "providerStrategy");
        return this;
    }

    /**
     * When noted errors take an instance out. Default {@link DownInstancePolicy#DEFAULT}.
     *
     * @param policy when noted errors take an instance out
     * @return this builder
     */
    public ServiceProviderBuilder<T> downInstancePolicy(DownInstancePolicy policy) {
        this.downInstancePolicy = Objects.requireNonNull(policy, "downInstancePolicy");
        return this;
    }

    /**
     * Only instances passing {@code filter} are used (in addition to enabled, UP, not taken out). Filters
     * combine with "and".
     *
     * @param filter which instances may be used
     * @return this builder
     */
    public ServiceProviderBuilder<T> additionalFilter(Predicate<? super ServiceInstance<T>> filter) {
        Objects.requireNonNull(filter, "filter");
        Predicate<? super ServiceInstance<T>> before = this.filter;
        this.filter = i -> before.test(i) && filter.test(i);
        return this;
    }

    /**
     * The clock of the down-instance policy, in nanoseconds like {@link System#nanoTime()} (the default);
     * tests pass a fake one.
     *
     * @param nanoTime the clock of the down-instance policy, in nanoseconds like {@link System#nanoTime()}
     *     (the default); tests pass a fake one
     * @return this builder
     */
    public ServiceProviderBuilder<T> ticker(LongSupplier nanoTime) {
        this.ticker = Objects.requireNonNull(nanoTime, "ticker");
        return this;
    }

    /**
     * How long {@link ServiceProvider#start()} waits for the first load. Default 30 s.
     *
     * @param timeout how long {@link ServiceProvider#start()} waits for the first load
     * @return this builder
     */
    public ServiceProviderBuilder<T> startTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "startTimeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("startTimeout must be positive, was " + timeout);
        }
        this.startTimeout = timeout;
        return this;
    }

    /** {@return a new, not yet started provider; closed with the discovery if not before} */
    public ServiceProvider<T> build() {
        if (serviceName == null) {
            throw new IllegalStateException("serviceName is required: serviceProviderBuilder().serviceName(\"orders\")");
        }
        return discovery.newProvider(serviceName, strategy, downInstancePolicy, filter, ticker, startTimeout);
    }
}

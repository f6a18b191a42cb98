package dev.baton.recipes.discovery;

import java.util.Objects;
import java.util.function.Function;

/**
 * Prefers instances in the caller's zone: picks among the instances whose zone equals the local
 * zone, and among all instances only when the local zone has none (so a zone outage fails over
 * instead of failing calls). The zone comes from {@link ServiceInstance#zone()} (the {@code "zone"}
 * metadata) or from a function of your own, say of the payload; inside the chosen set, another
 * strategy picks (round-robin by default).
 *
 * <p>The local subset is computed once per snapshot; a call is one identity check plus the
 * inner strategy's pick.
 *
 * <pre>{@code
 * ServiceProvider<Endpoint> orders = discovery.serviceProviderBuilder()
 *     .serviceName("orders")
 *     .providerStrategy(new ZoneAwareStrategy<>("eu-west-1a", i -> i.payload().zone(), new WeightedStrategy<>()))
 *     .build();
 * }</pre>
 *
 * @param <T> the payload type
 */
public final class ZoneAwareStrategy<T> implements ProviderStrategy<T> {
    private final String localZone;
    private final Function<? super ServiceInstance<T>, String> zoneOf;
    private final ProviderStrategy<T> within;
    private volatile Split<T> split = new Split<>(null, null);

    private record Split<T>(Instances<T> from, Instances<T> local) {
    }

    /**
     * Zone from the metadata, round-robin inside it.
     *
     * @param localZone the caller's zone, not blank
     */
    public ZoneAwareStrategy(String localZone) {
        this(localZone, ServiceInstance::zone, new RoundRobinStrategy<>());
    }

    /**
     * Zone from {@code zoneOf} (null: no zone), {@code within} picking inside the chosen set.
     *
     * @param localZone the caller's zone, not blank
     * @param zoneOf an instance's zone, or null for none
     * @param within picks inside the chosen set
     */
    public ZoneAwareStrategy(String localZone, Function<? super ServiceInstance<T>, String> zoneOf, ProviderStrategy<T> within) {
        Objects.requireNonNull(localZone, "localZone");
        if (localZone.isBlank()) {
            throw new IllegalArgumentException("localZone must not be blank, was '" + localZone + "'");
        }
        this.localZone = localZone;
        this.zoneOf = Objects.requireNonNull(zoneOf, "zoneOf");
        this.within = Objects.requireNonNull(within, "within");
    }

    /** {@return the caller's zone} */
    public String localZone() {
        return localZone;
    }

    @Override
    public ServiceInstance<T> getInstance(Instances<T> instances) {
        Split<T> s = split;
        if (s.from() != instances) {
            s = new Split<>(instances, instances.filter(i -> localZone.equals(zoneOf.apply(i))));
            split = s;
        }
        return within.getInstance(s.local().isEmpty() ? instances : s.local());
    }
}

package dev.baton.recipes.discovery;

/**
 * Chooses one instance for a call: the load-balancing rule of a {@link ServiceProvider}.
 *
 * <p>Called on every {@link ServiceProvider#getInstance()}, from any thread, concurrently, with a
 * non-empty snapshot of the instances that may be used (enabled, UP, not taken out by the
 * down-instance policy). It must be thread-safe, must not block, and should not allocate: keep
 * whatever it derives from a snapshot until it is handed a different one (snapshots change only
 * when the instances do). Baton's strategies: {@link RoundRobinStrategy}, {@link RandomStrategy},
 * {@link StickyStrategy}, {@link WeightedStrategy}, {@link ZoneAwareStrategy}.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface ProviderStrategy<T> {
    /**
     * {@return one of {@code instances} (never empty), or null to say "none of these"}
     *
     * @param instances the usable instances: an immutable snapshot, never empty
     */
    ServiceInstance<T> getInstance(Instances<T> instances);
}

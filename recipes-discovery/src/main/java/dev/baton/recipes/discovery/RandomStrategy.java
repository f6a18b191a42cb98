package dev.baton.recipes.discovery;

import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Picks an instance uniformly at random. By default from {@link ThreadLocalRandom} (no
 * contention between threads); give a seeded generator for a reproducible sequence, e.g. in tests
 * ({@code new RandomStrategy<>(new Random(42))}; it must be thread-safe if the provider is shared).
 *
 * @param <T> the payload type
 */
public final class RandomStrategy<T> implements ProviderStrategy<T> {
    private final RandomGenerator random;

    /** Random picks from {@link ThreadLocalRandom}. */
    public RandomStrategy() {
        this.random = null;
    }

    /**
     * Random picks from {@code random}.
     *
     * @param random the generator (thread-safe if the provider is shared; seeded for a reproducible sequence)
     */
    public RandomStrategy(RandomGenerator random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    @Override
    public ServiceInstance<T> getInstance(Instances<T> instances) {
        RandomGenerator r = random != null ? random : ThreadLocalRandom.current();
        return instances.get(r.nextInt(instances.size()));
    }
}

package dev.baton.recipes.discovery;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ToIntFunction;
import java.util.random.RandomGenerator;

/**
 * Picks an instance at random in proportion to its weight: an instance of weight 3 gets three
 * times the calls of one of weight 1. The weight comes from {@link ServiceInstance#weight()} (the
 * {@code "weight"} metadata, default 1) or from a function of your own (say, of the payload).
 * Weight 0 means "only if nothing else": when every instance weighs 0 they are chosen uniformly.
 *
 * <p>The cumulative weights are computed once per snapshot; a call draws one random number and
 * binary-searches them, without allocating.
 *
 * @param <T> the payload type
 */
public final class WeightedStrategy<T> implements ProviderStrategy<T> {
    private final ToIntFunction<? super ServiceInstance<T>> weightOf;
    private final RandomGenerator random;
    private volatile Table<T> table = new Table<>(null, new long[0]);

    /** {@code cumulative[i]} is the sum of the weights of instances 0..i. */
    private record Table<T>(Instances<T> from, long[] cumulative) {
    }

    /** Weights from the instances' metadata, randomness from {@link ThreadLocalRandom}. */
    public WeightedStrategy() {
        this(ServiceInstance::weight);
    }

    /** Weights from {@code weightOf} (negative results count as 0), randomness from {@link ThreadLocalRandom}. */
    public WeightedStrategy(ToIntFunction<? super ServiceInstance<T>> weightOf) {
        this.weightOf = Objects.requireNonNull(weightOf, "weightOf");
        this.random = null;
    }

    /** Weights from {@code weightOf}, randomness from {@code random} (thread-safe if shared; seeded for reproducible tests). */
    public WeightedStrategy(ToIntFunction<? super ServiceInstance<T>> weightOf, RandomGenerator random) {
        this.weightOf = Objects.requireNonNull(weightOf, "weightOf");
        this.random = Objects.requireNonNull(random, "random");
    }

    @Override
    public ServiceInstance<T> getInstance(Instances<T> instances) {
        Table<T> t = table;
        if (t.from() != instances) {
            t = new Table<>(instances, cumulative(instances));
            table = t;
        }
        RandomGenerator r = random != null ? random : ThreadLocalRandom.current();
        long total = t.cumulative()[t.cumulative().length - 1];
        if (total == 0) {
            return instances.get(r.nextInt(instances.size()));
        }
        long ticket = r.nextLong(total);
        // the first instance whose cumulative weight exceeds the ticket
        int index = Arrays.binarySearch(t.cumulative(), ticket + 1);
        if (index < 0) {
            index = -index - 1;
        } else {
            // several instances can share a cumulative value (weight 0): take the first with it
            while (index > 0 && t.cumulative()[index - 1] == ticket + 1) {
                index--;
            }
        }
        return instances.get(index);
    }

    private long[] cumulative(Instances<T> instances) {
        long[] sums = new long[instances.size()];
        long sum = 0;
        for (int i = 0; i < sums.length; i++) {
            sum += Math.max(0, weightOf.applyAsInt(instances.get(i)));
            sums[i] = sum;
        }
        return sums;
    }
}

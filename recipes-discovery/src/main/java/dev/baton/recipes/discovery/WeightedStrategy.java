package dev.baton.recipes.discovery;

import java.util.ArrayDeque;
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
 * <p>Algorithm: Vose's alias method. For each snapshot a table is built once: every column holds
 * an instance, a threshold and an alias, such that choosing a column uniformly and then the
 * instance or its alias by the threshold gives each instance exactly its share (to 2<sup>-32</sup>).
 * A call draws one random {@code long} — the high half picks the column, the low half is compared
 * with the threshold — so it costs the same with 5 or 500 instances and never allocates.
 *
 * @param <T> the payload type
 */
public final class WeightedStrategy<T> implements ProviderStrategy<T> {
    private static final long ONE = 1L << 32;

    private final ToIntFunction<? super ServiceInstance<T>> weightOf;
    private final RandomGenerator random;
    private volatile Table<T> table = new Table<>(null, new long[0], new int[0]);

    /** Column i yields instance i when the low 32 random bits are below {@code threshold[i]}, else {@code alias[i]}. */
    private record Table<T>(Instances<T> from, long[] threshold, int[] alias) {
    }

    /** Weights from the instances' metadata, randomness from {@link ThreadLocalRandom}. */
    public WeightedStrategy() {
        this(ServiceInstance::weight);
    }

    /**
     * Weights from {@code weightOf} (negative results count as 0), randomness from {@link ThreadLocalRandom}.
     *
     * @param weightOf an instance's weight
     */
    public WeightedStrategy(ToIntFunction<? super ServiceInstance<T>> weightOf) {
        this.weightOf = Objects.requireNonNull(weightOf, "weightOf");
        this.random = null;
    }

    /**
     * Weights from {@code weightOf}, randomness from {@code random} (thread-safe if shared; seeded for
     * reproducible tests).
     *
     * @param weightOf an instance's weight
     * @param random the generator (thread-safe if the provider is shared)
     */
    public WeightedStrategy(ToIntFunction<? super ServiceInstance<T>> weightOf, RandomGenerator random) {
        this.weightOf = Objects.requireNonNull(weightOf, "weightOf");
        this.random = Objects.requireNonNull(random, "random");
    }

    @Override
    public ServiceInstance<T> getInstance(Instances<T> instances) {
        Table<T> t = table;
        if (t.from() != instances) {
            t = build(instances);
            table = t;
        }
        long r = (random != null ? random : ThreadLocalRandom.current()).nextLong();
        // high 32 bits scaled to [0, n) by multiply-shift (no division); low 32 bits against the threshold
        int column = (int) (((r >>> 32) * t.threshold().length) >>> 32);
        return instances.get((r & 0xFFFF_FFFFL) < t.threshold()[column] ? column : t.alias()[column]);
    }

    private Table<T> build(Instances<T> instances) {
        int n = instances.size();
        long[] weights = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            weights[i] = Math.max(0, weightOf.applyAsInt(instances.get(i)));
            total += weights[i];
        }
        long[] threshold = new long[n];
        int[] alias = new int[n];
        if (total == 0) {
            java.util.Arrays.fill(threshold, ONE);   // nothing weighs anything: uniform
            return new Table<>(instances, threshold, alias);
        }
        double[] share = new double[n];
        ArrayDeque<Integer> small = new ArrayDeque<>();
        ArrayDeque<Integer> large = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            share[i] = (double) weights[i] * n / total;
            if (weights[i] == 0) {
                small.addFirst(i);   // weight 0 first, while there are large columns to alias them to
            } else if (share[i] < 1.0) {
                small.addLast(i);
            } else {
                large.addLast(i);
            }
        }
        while (!small.isEmpty() && !large.isEmpty()) {
            int less = small.pollFirst();
            int more = large.pollFirst();
            threshold[less] = (long) (share[less] * ONE);
            alias[less] = more;
            share[more] = share[more] + share[less] - 1.0;
            if (share[more] < 1.0) {
                small.addLast(more);
            } else {
                large.addLast(more);
            }
        }
        // what is left holds a full column (up to rounding); a weight-0 instance never keeps one
        for (int i : large) {
            threshold[i] = ONE;
        }
        for (int i : small) {
            threshold[i] = weights[i] == 0 ? 0 : ONE;
            alias[i] = weights[i] == 0 ? firstWeighted(weights) : i;
        }
        return new Table<>(instances, threshold, alias);
    }

    private static int firstWeighted(long[] weights) {
        for (int i = 0; i < weights.length; i++) {
            if (weights[i] > 0) {
                return i;
            }
        }
        return 0;
    }
}

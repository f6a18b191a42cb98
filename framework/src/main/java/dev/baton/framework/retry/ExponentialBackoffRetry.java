package dev.baton.framework.retry;

import dev.baton.framework.BatonException;
import dev.baton.framework.Timeouts;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Retries up to {@code maxRetries} times, waiting longer each time: before retry {@code n} it
 * waits a random time between {@code baseSleep × 2^(n-1)} and twice that, capped at
 * {@code maxSleep}. The randomness keeps clients that lost the same server from coming back in
 * lock-step.
 */
public class ExponentialBackoffRetry implements RetryPolicy {
    /** More doublings than this would overflow; later retries wait the cap. */
    private static final int MAX_SHIFT = 29;

    private final Duration baseSleep;
    private final int maxRetries;
    private final Duration maxSleep;
    private final DoubleSupplier random;

    /**
     * Retries up to {@code maxRetries} times, waiting a random time that doubles from {@code baseSleep} each
     * retry.
     *
     * @param baseSleep the base of the first wait, positive
     * @param maxRetries how many retries, 0 or more
     */
    public ExponentialBackoffRetry(Duration baseSleep, int maxRetries) {
        this(baseSleep, maxRetries, Duration.ofMillis(Integer.MAX_VALUE));
    }

    /**
     * Retries up to {@code maxRetries} times, waiting a random time that doubles from {@code baseSleep} each
     * retry, at most {@code maxSleep}.
     *
     * @param baseSleep the base of the first wait, positive
     * @param maxRetries how many retries, 0 or more
     * @param maxSleep the longest wait, positive
     */
    public ExponentialBackoffRetry(Duration baseSleep, int maxRetries, Duration maxSleep) {
        this(baseSleep, maxRetries, maxSleep, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** For tests: {@code random} returns values in [0, 1). */
    ExponentialBackoffRetry(Duration baseSleep, int maxRetries, Duration maxSleep, DoubleSupplier random) {
        this.baseSleep = Durations.positive(getClass(), "baseSleep", baseSleep);
        this.maxRetries = Durations.nonNegative(getClass(), "maxRetries", maxRetries);
        this.maxSleep = Durations.positive(getClass(), "maxSleep", maxSleep);
        this.random = random;
    }

    @Override
    public Optional<Duration> retryAfter(int retryCount, Duration elapsed, BatonException cause) {
        if (retryCount > maxRetries) {
            return Optional.empty();
        }
        int shift = Math.min(retryCount - 1, MAX_SHIFT);
        long base = Timeouts.nanos(baseSleep);
        // saturate rather than shift bits out: a long base shifted far could wrap to 0 (a retry storm)
        long floor = base > (Long.MAX_VALUE / 2) >> shift ? Long.MAX_VALUE / 2 : base << shift;
        long nanos = floor + (long) (floor * random.getAsDouble());
        return Optional.of(Duration.ofNanos(Math.min(Math.max(nanos, 0), Timeouts.nanos(maxSleep))));
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[baseSleep=" + baseSleep + ", maxRetries=" + maxRetries + ", maxSleep=" + maxSleep + "]";
    }
}

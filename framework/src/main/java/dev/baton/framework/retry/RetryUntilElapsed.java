package dev.baton.framework.retry;

import dev.baton.framework.BatonException;
import java.time.Duration;
import java.util.Optional;

/**
 * Retries every {@code sleep} for as long as the operation has been running less than
 * {@code maxElapsed}; a retry never starts after that time.
 */
public final class RetryUntilElapsed implements RetryPolicy {
    private final Duration maxElapsed;
    private final Duration sleep;

    /**
     * Retries, waiting {@code sleep} before each retry, until {@code maxElapsed} has passed since the first
     * attempt.
     *
     * @param maxElapsed how long after the first attempt retries may start
     * @param sleep the wait before each retry, not negative
     */
    public RetryUntilElapsed(Duration maxElapsed, Duration sleep) {
        this.maxElapsed = Durations.positive(getClass(), "maxElapsed", maxElapsed);
        this.sleep = Durations.nonNegative(getClass(), "sleep", sleep);
    }

    @Override
    public Optional<Duration> retryAfter(int retryCount, Duration elapsed, BatonException cause) {
        Duration left = maxElapsed.minus(elapsed);
        if (left.isNegative() || left.isZero()) {
            return Optional.empty();
        }
        return Optional.of(sleep.compareTo(left) < 0 ? sleep : left);
    }

    @Override
    public String toString() {
        return "RetryUntilElapsed[maxElapsed=" + maxElapsed + ", sleep=" + sleep + "]";
    }
}

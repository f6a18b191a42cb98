package dev.baton.framework.retry;

import dev.baton.framework.BatonException;
import java.time.Duration;
import java.util.Optional;

/** Retries up to {@code n} times, waiting {@code sleep} before each retry. */
public class RetryNTimes implements RetryPolicy {
    private final int n;
    private final Duration sleep;

    /**
     * Retries up to {@code n} times, waiting {@code sleep} before each retry.
     *
     * @param n how many retries, 0 or more
     * @param sleep the wait before each retry, not negative
     */
    public RetryNTimes(int n, Duration sleep) {
        this.n = Durations.nonNegative(getClass(), "n", n);
        this.sleep = Durations.nonNegative(getClass(), "sleep", sleep);
    }

    @Override
    public Optional<Duration> retryAfter(int retryCount, Duration elapsed, BatonException cause) {
        return retryCount <= n ? Optional.of(sleep) : Optional.empty();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[n=" + n + ", sleep=" + sleep + "]";
    }
}

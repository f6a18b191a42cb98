package dev.baton.framework.retry;

import dev.baton.framework.BatonException;
import java.time.Duration;
import java.util.Optional;

/**
 * Retries every {@code sleep}, forever. A blocking operation still fails once no connection can
 * be found within the client's connection timeout, and stops when its thread is interrupted.
 */
public final class RetryForever implements RetryPolicy {
    private final Duration sleep;

    /**
     * Retries without end, waiting {@code sleep} before each retry.
     *
     * @param sleep the wait before each retry, not negative
     */
    public RetryForever(Duration sleep) {
        this.sleep = Durations.nonNegative(getClass(), "sleep", sleep);
    }

    @Override
    public Optional<Duration> retryAfter(int retryCount, Duration elapsed, BatonException cause) {
        return Optional.of(sleep);
    }

    @Override
    public String toString() {
        return "RetryForever[sleep=" + sleep + "]";
    }
}

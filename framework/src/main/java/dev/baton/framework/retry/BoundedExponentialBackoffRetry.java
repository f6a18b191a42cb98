package dev.baton.framework.retry;

import java.time.Duration;

/** {@link ExponentialBackoffRetry} with the cap as a required argument, as in Curator. */
public final class BoundedExponentialBackoffRetry extends ExponentialBackoffRetry {
    /**
     * Retries up to {@code maxRetries} times, waiting a random time that doubles from {@code baseSleep} each
     * retry, at most {@code maxSleep}.
     *
     * @param baseSleep the base of the first wait, positive
     * @param maxSleep the longest wait, positive
     * @param maxRetries how many retries, 0 or more
     */
    public BoundedExponentialBackoffRetry(Duration baseSleep, Duration maxSleep, int maxRetries) {
        super(baseSleep, maxRetries, maxSleep);
    }
}

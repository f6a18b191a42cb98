package dev.baton.framework.retry;

import java.time.Duration;

/** {@link ExponentialBackoffRetry} with the cap as a required argument, as in Curator. */
public final class BoundedExponentialBackoffRetry extends ExponentialBackoffRetry {
    public BoundedExponentialBackoffRetry(Duration baseSleep, Duration maxSleep, int maxRetries) {
        super(baseSleep, maxRetries, maxSleep);
    }
}

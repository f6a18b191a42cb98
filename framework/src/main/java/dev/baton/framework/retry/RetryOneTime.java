package dev.baton.framework.retry;

import java.time.Duration;

/** Retries once, after {@code sleep}. */
public final class RetryOneTime extends RetryNTimes {
    public RetryOneTime(Duration sleep) {
        super(1, sleep);
    }
}

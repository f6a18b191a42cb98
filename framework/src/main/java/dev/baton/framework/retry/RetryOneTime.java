package dev.baton.framework.retry;

import java.time.Duration;

/** Retries once, after {@code sleep}. */
public final class RetryOneTime extends RetryNTimes {
    /**
     * Retries once, after {@code sleep}.
     *
     * @param sleep the wait before the retry, not negative
     */
    public RetryOneTime(Duration sleep) {
        super(1, sleep);
    }
}

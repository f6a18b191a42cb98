package dev.baton.framework.retry;

import dev.baton.framework.BatonException;
import java.time.Duration;
import java.util.Optional;

/**
 * Decides whether a failed operation is tried again, and after how long.
 *
 * <p>A policy only decides; it never sleeps. The framework's one retry loop asks it after each
 * recoverable failure (connection loss mid-flight, operation timeout, session moved) and waits
 * the answer out on its clock, or gives up and throws the failure. Other failures — no node, bad
 * version, session expired, ... — are never retried, whatever the policy.
 *
 * <p>Implementations must be immutable and thread-safe: one policy serves every operation of a
 * client at once.
 */
@FunctionalInterface
public interface RetryPolicy {
    /**
     * @param retryCount which retry this would be: 1 for the first retry
     * @param elapsed time since the operation's first attempt started
     * @param cause the failure of the attempt that just ended
     * @return how long to wait before retrying, or empty to give up
     */
    Optional<Duration> retryAfter(int retryCount, Duration elapsed, BatonException cause);
}

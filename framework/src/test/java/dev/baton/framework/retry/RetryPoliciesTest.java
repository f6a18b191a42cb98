package dev.baton.framework.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonException;
import dev.baton.framework.ConnectionLossException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetryPoliciesTest {
    private static final BatonException LOSS = new ConnectionLossException("getData", "/x", null);

    @Test
    void exponentialBackoffDoublesWithinItsJitterAndStopsAfterMaxRetries() {
        ExponentialBackoffRetry lowest = new ExponentialBackoffRetry(Duration.ofMillis(100), 3, Duration.ofSeconds(10), () -> 0.0);
        ExponentialBackoffRetry highest = new ExponentialBackoffRetry(Duration.ofMillis(100), 3, Duration.ofSeconds(10), () -> 0.999);

        assertThat(lowest.retryAfter(1, Duration.ZERO, LOSS)).contains(Duration.ofMillis(100));
        assertThat(lowest.retryAfter(2, Duration.ZERO, LOSS)).contains(Duration.ofMillis(200));
        assertThat(lowest.retryAfter(3, Duration.ZERO, LOSS)).contains(Duration.ofMillis(400));
        assertThat(highest.retryAfter(3, Duration.ZERO, LOSS).orElseThrow()).isBetween(Duration.ofMillis(799), Duration.ofMillis(800));
        assertThat(lowest.retryAfter(4, Duration.ZERO, LOSS)).isEmpty();
    }

    @Test
    void boundedBackoffNeverWaitsLongerThanItsCapEvenAfterManyRetries() {
        BoundedExponentialBackoffRetry policy = new BoundedExponentialBackoffRetry(Duration.ofMillis(100), Duration.ofSeconds(1), 100);
        for (int retry = 1; retry <= 100; retry++) {
            Duration wait = policy.retryAfter(retry, Duration.ZERO, LOSS).orElseThrow();
            assertThat(wait).as("retry %d", retry).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1));
        }
        assertThat(policy.retryAfter(101, Duration.ZERO, LOSS)).isEmpty();
    }

    @Test
    void backoffsTooLongToCountAreCutToTheLongestWaitInsteadOfOverflowing() {
        Duration forever = java.time.temporal.ChronoUnit.FOREVER.getDuration();
        ExponentialBackoffRetry policy = new ExponentialBackoffRetry(forever, 3, forever, () -> 0.5);
        for (int retry = 1; retry <= 3; retry++) {
            Duration wait = policy.retryAfter(retry, Duration.ZERO, null).orElseThrow();
            assertThat(wait).as("retry %d", retry).isPositive().isLessThanOrEqualTo(dev.baton.framework.Timeouts.LONGEST);
        }
        // a base of 2^35 ns (34 s) shifted 29 times used to wrap to 0: a retry at once, a storm
        ExponentialBackoffRetry slow = new ExponentialBackoffRetry(Duration.ofNanos(1L << 35), 40, forever, () -> 0.0);
        for (int retry = 1; retry <= 40; retry++) {
            assertThat(slow.retryAfter(retry, Duration.ZERO, null).orElseThrow()).as("retry %d", retry)
                .isGreaterThanOrEqualTo(Duration.ofNanos(1L << 35));
        }
    }

    @Test
    void retryNTimesAndOneTime() {
        RetryNTimes three = new RetryNTimes(3, Duration.ofMillis(50));
        assertThat(three.retryAfter(3, Duration.ofHours(1), LOSS)).contains(Duration.ofMillis(50));
        assertThat(three.retryAfter(4, Duration.ZERO, LOSS)).isEmpty();
        RetryOneTime once = new RetryOneTime(Duration.ofMillis(10));
        assertThat(once.retryAfter(1, Duration.ZERO, LOSS)).contains(Duration.ofMillis(10));
        assertThat(once.retryAfter(2, Duration.ZERO, LOSS)).isEmpty();
    }

    @Test
    void retryUntilElapsedNeverSchedulesARetryPastItsLimit() {
        RetryUntilElapsed policy = new RetryUntilElapsed(Duration.ofSeconds(1), Duration.ofMillis(300));
        assertThat(policy.retryAfter(1, Duration.ofMillis(100), LOSS)).contains(Duration.ofMillis(300));
        assertThat(policy.retryAfter(5, Duration.ofMillis(900), LOSS)).contains(Duration.ofMillis(100));
        assertThat(policy.retryAfter(6, Duration.ofSeconds(1), LOSS)).isEmpty();
    }

    @Test
    void retryForeverAlwaysRetries() {
        assertThat(new RetryForever(Duration.ofMillis(5)).retryAfter(Integer.MAX_VALUE, Duration.ofDays(365), LOSS))
            .isEqualTo(Optional.of(Duration.ofMillis(5)));
    }

    @Test
    void badArgumentsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> new ExponentialBackoffRetry(Duration.ZERO, 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("baseSleep must be positive, was PT0S");
        assertThatThrownBy(() -> new RetryNTimes(-1, Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("n must not be negative, was -1");
        assertThatThrownBy(() -> new RetryForever(Duration.ofMillis(-5)))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("sleep must not be negative, was PT-0.005S");
        assertThatThrownBy(() -> new RetryUntilElapsed(Duration.ZERO, Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("maxElapsed must be positive, was PT0S");
    }
}

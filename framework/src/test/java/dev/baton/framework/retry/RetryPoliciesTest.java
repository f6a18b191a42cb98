package dev.baton.framework.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonException;
import dev.baton.framework.ConnectionLossException;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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

    /** Each policy's bad argument, as a user would write it, and the message that names the policy, the parameter and the value. */
    static Stream<Arguments> badArguments() {
        Duration ms = Duration.ofMillis(1);
        Duration minus5ms = Duration.ofMillis(-5);
        return Stream.of(
            bad("RetryNTimes: n must not be negative, was -1", () -> new RetryNTimes(-1, ms)),
            bad("RetryNTimes: sleep must not be negative, was PT-0.005S", () -> new RetryNTimes(3, minus5ms)),
            bad("RetryOneTime: sleep must not be negative, was PT-0.005S", () -> new RetryOneTime(minus5ms)),
            bad("RetryForever: sleep must not be negative, was PT-0.005S", () -> new RetryForever(minus5ms)),
            bad("RetryUntilElapsed: maxElapsed must be positive, was PT0S", () -> new RetryUntilElapsed(Duration.ZERO, ms)),
            bad("RetryUntilElapsed: sleep must not be negative, was PT-0.005S", () -> new RetryUntilElapsed(ms, minus5ms)),
            bad("ExponentialBackoffRetry: baseSleep must be positive, was PT0S", () -> new ExponentialBackoffRetry(Duration.ZERO, 3)),
            bad("ExponentialBackoffRetry: maxRetries must not be negative, was -1", () -> new ExponentialBackoffRetry(ms, -1)),
            bad("ExponentialBackoffRetry: maxSleep must be positive, was PT-0.005S", () -> new ExponentialBackoffRetry(ms, 3, minus5ms)),
            bad("BoundedExponentialBackoffRetry: baseSleep must be positive, was PT-0.005S",
                () -> new BoundedExponentialBackoffRetry(minus5ms, ms, 3)),
            bad("BoundedExponentialBackoffRetry: maxSleep must be positive, was PT0S",
                () -> new BoundedExponentialBackoffRetry(ms, Duration.ZERO, 3)),
            bad("BoundedExponentialBackoffRetry: maxRetries must not be negative, was -2",
                () -> new BoundedExponentialBackoffRetry(ms, ms, -2)));
    }

    private static Arguments bad(String message, ThrowingCallable construct) {
        return Arguments.of(message, construct);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badArguments")
    void aBadArgumentIsRefusedNamingThePolicyTheParameterAndTheValue(String message, ThrowingCallable construct) {
        assertThatThrownBy(construct).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    @Test
    void aMissingDurationIsRefusedNamingThePolicyAndTheParameter() {
        assertThatThrownBy(() -> new RetryNTimes(1, null))
            .isInstanceOf(NullPointerException.class).hasMessage("RetryNTimes: sleep must not be null");
        assertThatThrownBy(() -> new BoundedExponentialBackoffRetry(Duration.ofMillis(1), null, 1))
            .isInstanceOf(NullPointerException.class).hasMessage("BoundedExponentialBackoffRetry: maxSleep must not be null");
    }
}

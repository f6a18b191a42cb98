package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class TimeoutsTest {

    @Test
    void ordinaryTimeoutsConvertExactly() {
        assertThat(Timeouts.nanos(Duration.ZERO)).isZero();
        assertThat(Timeouts.nanos(Duration.ofMillis(1_500))).isEqualTo(1_500_000_000L);
        assertThat(Timeouts.millis(Duration.ofSeconds(90))).isEqualTo(90_000L);
        assertThat(Timeouts.nanos(Duration.ofDays(365 * 100))).isEqualTo(Duration.ofDays(365 * 100).toNanos());
    }

    @Test
    void timeoutsTooLongToCountAreCutToTheLongestAndNeverOverflowADeadline() {
        for (Duration huge : new Duration[] {ChronoUnit.FOREVER.getDuration(), Duration.ofMillis(Long.MAX_VALUE),
            Duration.ofNanos(Long.MAX_VALUE), Duration.ofDays(365 * 200), Timeouts.LONGEST}) {
            assertThat(Timeouts.nanos(huge)).as("%s", huge).isEqualTo(Timeouts.LONGEST.toNanos());
            assertThat(Timeouts.millis(huge)).as("%s", huge).isEqualTo(Timeouts.LONGEST.toMillis());
            long deadline = System.nanoTime() + Timeouts.nanos(huge);
            assertThat(deadline - System.nanoTime()).as("a deadline %s away has not passed", huge).isPositive();
        }
    }

    @Test
    void aNegativeTimeoutIsRefusedWhereOneMustNotBe() {
        assertThat(Timeouts.nonNegativeNanos(Duration.ofSeconds(2))).isEqualTo(2_000_000_000L);
        assertThat(Timeouts.nonNegativeNanos(Duration.ZERO)).isZero();
        assertThatThrownBy(() -> Timeouts.nonNegativeNanos(Duration.ofMillis(-5))).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("timeout must not be negative, was PT-0.005S");
    }

    @Test
    void aNullTimeoutIsRefusedByName() {
        assertThatThrownBy(() -> Timeouts.nanos(null)).isInstanceOf(NullPointerException.class).hasMessage("timeout");
    }
}

package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** "No timeout" spelt one way, and deadlines read on the client's clock (a fake one here). */
class DeadlineTest {
    private final AtomicLong now = new AtomicLong(-5_000_000_000L);   // nanoTime may be negative
    private final Ticker ticker = now::get;

    @Test
    void aDeadlinePassesWhenItsTickerSaysSo() {
        Deadline deadline = Deadline.after(Duration.ofSeconds(5), ticker);
        assertThat(deadline.hasPassed()).isFalse();
        assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(5));
        now.addAndGet(Duration.ofSeconds(4).toNanos());
        assertThat(deadline.remainingNanos()).isEqualTo(Duration.ofSeconds(1).toNanos());
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(deadline.hasPassed()).isTrue();
        assertThat(deadline.remaining()).isEqualTo(Duration.ZERO);
    }

    @Test
    void noTimeoutIsNoneAndATimeoutTooLongToCountIsNoneToo() {
        assertThat(Deadline.none().hasPassed()).isFalse();
        assertThat(Deadline.none().remainingNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(Deadline.after(ChronoUnit.FOREVER.getDuration(), ticker).isNone()).isTrue();
        assertThat(Deadline.after(Duration.ZERO, ticker).hasPassed()).as("zero: look once").isTrue();
    }

    @Test
    void theEarlierOfTwoDeadlinesIsTheOneWithLessLeft() {
        Deadline soon = Deadline.after(Duration.ofSeconds(1), ticker);
        Deadline later = Deadline.after(Duration.ofSeconds(9), ticker);
        assertThat(later.orEarlier(soon)).isSameAs(soon);
        assertThat(soon.orEarlier(later)).isSameAs(soon);
        assertThat(Deadline.none().orEarlier(later)).isSameAs(later);
        assertThat(later.orEarlier(Deadline.none())).isSameAs(later);
    }

    @Test
    void aNegativeTimeoutFromACallerIsRefusedByName() {
        assertThatThrownBy(() -> Deadline.afterNonNegative(Duration.ofSeconds(-1), ticker))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout must not be negative, was PT-1S");
    }

    @Test
    void theClientCarriesTheTickerItWasBuiltWith() {
        try (BatonClient client = BatonClient.builder().connectString("127.0.0.1:1").ticker(ticker).build()) {
            assertThat(client.ticker()).isSameAs(ticker);
        }
        try (BatonClient client = BatonClient.builder().connectString("127.0.0.1:1").build()) {
            long before = System.nanoTime();
            assertThat(client.ticker().read()).isGreaterThanOrEqualTo(before);
        }
    }
}

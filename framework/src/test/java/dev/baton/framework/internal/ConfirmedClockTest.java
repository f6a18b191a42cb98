package dev.baton.framework.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The confirmed-contact rule on plain numbers: a session timeout of 4000 units, times in the same units. */
class ConfirmedClockTest {
    private static final long T = 4000;
    private static final long SESSION = 7;

    @Test
    void beforeAnyConfirmationTheClockIsMoreThanASessionTimeoutAgo() {
        ConfirmedClock clock = new ConfirmedClock(10_000, T);
        assertThat(clock.contactNanos(SESSION, 10_000, T)).isLessThan(10_000 - T);
    }

    @Test
    void aLoneConfirmedRoundTripCountsOnlyTheTouchesZooKeepersOwnPingsGuarantee() {
        ConfirmedClock clock = new ConfirmedClock(10_000, T);
        clock.confirmed(SESSION, 10_000, 10_010, 10_010, T);
        // a quarter (the leader's ping lag) and a third (the client's longest silence) before the send
        assertThat(clock.contactNanos(SESSION, 10_010, T)).isEqualTo(10_000 - 1000 - 1333);
    }

    @Test
    void aConfirmedRoundTripSentAPingLagAfterAnEarlierReplySettlesTheEarlierSendTime() {
        ConfirmedClock clock = new ConfirmedClock(10_000, T);
        clock.confirmed(SESSION, 10_000, 10_010, 10_010, T);
        clock.confirmed(SESSION, 11_010, 11_020, 11_020, T);
        assertThat(clock.contactNanos(SESSION, 11_020, T)).isEqualTo(10_000);
    }

    @Test
    void aRoundTripTooSoonAfterTheEarlierOneDoesNotSettleIt() {
        ConfirmedClock clock = new ConfirmedClock(10_000, T);
        clock.confirmed(SESSION, 10_000, 10_010, 10_010, T);
        clock.confirmed(SESSION, 10_500, 10_510, 10_510, T);
        assertThat(clock.contactNanos(SESSION, 10_510, T)).as("only the lone bound of the later one").isEqualTo(10_500 - 2333);
        clock.confirmed(SESSION, 11_100, 11_110, 11_110, T);
        assertThat(clock.contactNanos(SESSION, 11_110, T)).as("the first one settled by the third").isEqualTo(10_000);
    }

    @Test
    void theClockNeverGoesBack() {
        ConfirmedClock clock = new ConfirmedClock(10_000, T);
        clock.confirmed(SESSION, 10_000, 10_010, 10_010, T);
        clock.confirmed(SESSION, 11_010, 11_020, 11_020, T);
        clock.confirmed(SESSION, 9_000, 11_030, 11_030, T); // a slow reply to an old request
        assertThat(clock.contactNanos(SESSION, 11_030, T)).isEqualTo(10_000);
    }

    @Test
    void anotherSessionStartsFromNothing() {
        ConfirmedClock clock = new ConfirmedClock(10_000, T);
        clock.confirmed(SESSION, 10_000, 10_010, 10_010, T);
        clock.confirmed(SESSION, 11_010, 11_020, 11_020, T);
        assertThat(clock.contactNanos(SESSION + 1, 11_020, T)).isLessThan(11_020 - T);
        clock.confirmed(SESSION + 1, 12_000, 12_010, 12_010, T);
        assertThat(clock.contactNanos(SESSION + 1, 12_010, T)).as("nothing of the old session settles the new one")
            .isEqualTo(12_000 - 2333);
    }
}

package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdHistoryTest {
    @Test
    void distinctIncreasingIdsPass() {
        IdHistory history = new IdHistory();
        IdHistory.Actor a = history.actor("a");
        IdHistory.Actor b = history.actor("b");
        for (long id = 1; id <= 3000; id++) {
            (id % 2 == 0 ? a : b).handedOut(id);
        }
        assertThat(history.size()).isEqualTo(3000);
        assertThat(history.uniqueness().isOk()).isTrue();
        assertThat(history.actorsIncrease().isOk()).isTrue();
        assertThat(history.strictRealTimeOrder().isOk()).isTrue();
    }

    @Test
    void aReusedBlockIsCaughtNamingTheIdsAndWhoGotThem() {
        IdHistory history = new IdHistory();
        IdHistory.Actor a = history.actor("a");
        IdHistory.Actor b = history.actor("b");
        for (long id = 100; id < 110; id++) {
            a.handedOut(id);
        }
        for (long id = 105; id < 115; id++) {   // b took a block overlapping a's
            b.handedOut(id);
        }
        Verdict unique = history.uniqueness();
        assertThat(unique.violations()).hasSize(5).first().isEqualTo("id 105 was handed out to [a, b]");
        assertThat(history.actorsIncrease().isOk()).isTrue();
    }

    @Test
    void anIdHandedOutTwiceToOneActorAndOutOfOrderIsCaught() {
        IdHistory history = new IdHistory();
        IdHistory.Actor a = history.actor("a");
        a.handedOut(7);
        a.handedOut(7);
        a.handedOut(3);
        assertThat(history.uniqueness().violations()).containsExactly("id 7 was handed out to [a, a]");
        assertThat(history.actorsIncrease().violations()).containsExactly("a received 7 after 7", "a received 3 after 7");
    }

    @Test
    void aStrictCallThatBeganAfterAnotherReturnedMustGetLargerIds() {
        IdHistory history = new IdHistory();
        IdHistory.Actor a = history.actor("a");
        IdHistory.Actor b = history.actor("b");
        long start = System.nanoTime();
        a.handedOutStrictly(start, 10, 11);
        long later = System.nanoTime() + 1;
        b.handedOutStrictly(later, 5);   // began after a's call returned, yet smaller
        assertThat(history.strictRealTimeOrder().violations()).hasSize(1).first().asString()
            .contains("b's call [5..5] began after a's call [10..11] had returned");

        IdHistory overlapping = new IdHistory();
        long t0 = System.nanoTime();
        IdHistory.Actor c = overlapping.actor("c");
        IdHistory.Actor d = overlapping.actor("d");
        long t1 = System.nanoTime();
        d.handedOutStrictly(t1, 20);
        c.handedOutStrictly(t0, 19);     // c began before d returned: concurrent calls may come in either order
        assertThat(overlapping.strictRealTimeOrder().isOk()).isTrue();
    }
}

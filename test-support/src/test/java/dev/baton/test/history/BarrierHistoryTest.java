package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BarrierHistoryTest {

    @Test
    void aRoundOfThreeWhoArrivedTogetherPasses() {
        BarrierHistory h = new BarrierHistory();
        h.arrived("a");
        h.arrived("b");
        h.arrived("c");
        h.passed("c");
        h.passed("a");
        h.passed("b");
        assertThat(h.checkNobodyPassedEarly(3)).isEmpty();
    }

    @Test
    void aNewcomerPassingOnMembersThatAlreadyStartedLeavingIsCaught() {
        BarrierHistory h = new BarrierHistory();
        h.arrived("a");
        h.arrived("b");
        h.arrived("c");
        h.passed("a");
        h.passed("b");
        h.passed("c");
        h.leaving("a");
        h.leaving("b");
        h.arrived("d");   // only c (not yet leaving) and d are present from here on
        h.passed("d");
        assertThat(h.checkNobodyPassedEarly(3)).singleElement().asString()
            .contains("member=d").contains("only 2 member(s)").contains("[c, d]");
    }

    @Test
    void aMemberThatGaveUpAfterThePassersArrivalStillCountsButOneThatGaveUpBeforeDoesNot() {
        BarrierHistory h = new BarrierHistory();
        h.arrived("a");
        h.arrived("b");
        h.gaveUp("a");      // before c arrived: does not count for c
        h.arrived("c");
        h.arrived("a");     // a second presence of a, which does
        h.gaveUp("b");      // b overlapped c's wait, so it counts
        h.passed("c");
        assertThat(h.checkNobodyPassedEarly(3)).isEmpty();
        assertThat(h.checkNobodyPassedEarly(4)).singleElement().asString().contains("only 3 member(s)");
    }

    @Test
    void everyRoundIsJudgedOnItsOwnArrivals() {
        BarrierHistory h = new BarrierHistory();
        for (int round = 0; round < 1_000; round++) {
            for (String m : new String[] {"a", "b"}) {
                h.arrived(m);
            }
            h.passed("a");
            h.passed("b");
            h.leaving("a");
            h.leaving("b");
        }
        h.arrived("a");
        h.passed("a");   // alone, in a round of its own
        assertThat(h.checkNobodyPassedEarly(2)).singleElement().asString().contains("only 1 member(s)");
        assertThat(h.passes()).isEqualTo(2_001);
    }
}

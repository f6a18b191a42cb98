package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MutualExclusionTest {
    @Test
    void acceptsHoldsOneAfterAnotherWithGrowingTokens() {
        History history = new History();
        history.acquired("a", "/l", 10);
        history.released("a", "/l");
        history.acquired("b", "/l", 12);
        history.released("b", "/l");
        history.acquired("a", "/other", 5);

        Verdict verdict = MutualExclusion.check(history.events());

        assertThat(verdict.isOk()).as(verdict.violations().toString()).isTrue();
        assertThat(verdict.eventsChecked()).isEqualTo(5);
    }

    @Test
    void reportsAnAcquisitionWhileAnotherHolds() {
        History history = new History();
        history.acquired("a", "/l", 10);
        history.acquired("b", "/l", 11);

        Verdict verdict = MutualExclusion.check(history.events());

        assertThat(verdict.violations()).singleElement().asString().contains("b ACQUIRED /l").contains("while a held it");
        assertThatThrownBy(verdict::assertOk).isInstanceOf(AssertionError.class).hasMessageContaining("mutual exclusion violated 1 time");
    }

    @Test
    void reportsTokensThatDoNotGrow() {
        History history = new History();
        history.acquired("a", "/l", 10);
        history.released("a", "/l");
        history.acquired("b", "/l", 10);
        history.released("b", "/l");

        assertThat(MutualExclusion.check(history.events()).violations()).singleElement().asString()
            .contains("fencing token 10 is not larger than 10");
    }

    @Test
    void reportsAReleaseBySomeoneWhoDoesNotHold() {
        History history = new History();
        history.acquired("a", "/l", 10);
        history.released("b", "/l");

        assertThat(MutualExclusion.check(history.events()).violations()).singleElement().asString()
            .contains("released without holding it (holder: a)");
    }

    @Test
    void aLossEndsTheHoldButTokensMustStillGrow() {
        History history = new History();
        history.acquired("a", "/l", 10);
        history.lost("a", "/l");
        history.acquired("b", "/l", 20);
        history.released("b", "/l");

        assertThat(MutualExclusion.check(history.events()).isOk()).isTrue();
        assertThat(MutualExclusion.tokensIncrease(history.events()).isOk()).isTrue();
    }
}

package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LeadershipCheckerTest {
    @Test
    void handOverAfterStepDownIsCorrect() {
        LeadershipHistory history = new LeadershipHistory();
        history.granted("a", 10);
        history.ended("a");
        history.granted("b", 12);
        history.ended("b");
        history.granted("a", 15);

        LeadershipChecker.Verdict verdict = history.check().assertNeverTwoLeaders();
        assertThat(verdict.terms()).isEqualTo(3);
        assertThat(verdict.stillLeading()).containsExactly(java.util.Map.entry("a", 15L));
    }

    @Test
    void grantWhileAnotherLeadsIsTwoLeaders() {
        LeadershipHistory history = new LeadershipHistory();
        history.granted("a", 10);
        history.granted("b", 12);
        history.ended("a");

        assertThat(history.check().violations()).singleElement().asString().contains("two leaders", "b (term 12)", "a (term 10");
        assertThatThrownBy(() -> history.check().assertAtMostOneLeader()).isInstanceOf(AssertionError.class)
            .hasMessageContaining("granted b term 12");
    }

    @Test
    void overlapAfterRevocationFromOutsideIsExcusedButCounted() {
        LeadershipHistory history = new LeadershipHistory();
        history.granted("a", 10);
        history.revoked(10, "operator deleted a's node");
        history.granted("b", 12);
        history.ended("a");

        LeadershipChecker.Verdict verdict = history.check().assertAtMostOneLeader();
        assertThat(verdict.excusedOverlaps()).isEqualTo(1);
        assertThatThrownBy(verdict::assertNeverTwoLeaders).isInstanceOf(AssertionError.class);
    }

    @Test
    void revocationBeforeTheTermBeganExcusesNothing() {
        LeadershipHistory history = new LeadershipHistory();
        history.revoked(10, "deleted before a was told");
        history.granted("a", 10);
        history.granted("b", 12);

        assertThat(history.check().violations()).hasSize(2)
            .anySatisfy(v -> assertThat(v).contains("after its node was revoked"))
            .anySatisfy(v -> assertThat(v).contains("two leaders"));
    }

    @Test
    void termsMustGrowAndOnlyTheSameLeaderMayRepeatOne() {
        LeadershipHistory repeat = new LeadershipHistory();
        repeat.granted("a", 10);
        repeat.ended("a");
        repeat.granted("a", 10);
        repeat.check().assertNeverTwoLeaders();

        LeadershipHistory stale = new LeadershipHistory();
        stale.granted("a", 10);
        stale.ended("a");
        stale.granted("b", 9);
        stale.ended("b");
        stale.granted("c", 10);
        assertThat(stale.check().violations()).hasSize(2).allSatisfy(v -> assertThat(v).contains("not after the highest"));
    }

    @Test
    void malformedHistoriesAreReported() {
        LeadershipHistory history = new LeadershipHistory();
        history.ended("a");
        history.granted("b", 1);
        history.granted("b", 2);

        assertThat(history.check().violations()).hasSize(2)
            .anySatisfy(v -> assertThat(v).contains("a ended a term it did not hold"))
            .anySatisfy(v -> assertThat(v).contains("b was granted again"));
    }
}

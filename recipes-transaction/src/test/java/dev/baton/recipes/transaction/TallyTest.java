package dev.baton.recipes.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The protocol's rule, without a server. */
class TallyTest {
    private static final Transaction TX = new Transaction("_c_x-tx-0000000007", List.of("a", "b", "c"), new byte[0],
        Duration.ofSeconds(2));

    @Test
    void waitsWhileVotesAreMissingBeforeTheDeadline() {
        assertThat(Tally.of(TX, Map.of("a", Vote.COMMIT, "b", Vote.COMMIT), false, "a")).isEmpty();
        assertThat(Tally.of(TX, Map.of(), false, "a")).isEmpty();
    }

    @Test
    void commitsOnlyWhenEveryParticipantVotedCommitAndReliesOnEveryVote() {
        Tally t = Tally.of(TX, Map.of("a", Vote.COMMIT, "b", Vote.COMMIT, "c", Vote.COMMIT), false, "b").orElseThrow();
        assertThat(t.outcome()).isEqualTo(Outcome.COMMIT);
        assertThat(t.relyOn()).containsExactly("a", "b", "c");
        assertThat(t.reason()).isEqualTo("all 3 participants voted commit (recorded by b)");
    }

    @Test
    void anAbortVoteAbortsAtOnceAndReliesOnThatVoteAlone() {
        Tally t = Tally.of(TX, Map.of("a", Vote.COMMIT, "c", Vote.ABORT), false, "coordinator").orElseThrow();
        assertThat(t.outcome()).isEqualTo(Outcome.ABORT);
        assertThat(t.relyOn()).containsExactly("c");
        assertThat(t.reason()).isEqualTo("c voted abort (recorded by coordinator)");
    }

    @Test
    void theDeadlineAbortsWhenVotesAreMissingAndReliesOnNoVote() {
        Tally t = Tally.of(TX, Map.of("b", Vote.COMMIT), true, "coordinator").orElseThrow();
        assertThat(t.outcome()).isEqualTo(Outcome.ABORT);
        assertThat(t.relyOn()).isEmpty();
        assertThat(t.reason()).isEqualTo("deadline of 2000 ms passed without votes from [a, c] (recorded by coordinator)");
    }

    @Test
    void aCompleteAllCommitSetStillCommitsAfterTheDeadline() {
        // the last voter died before recording the commit: the deadline must not throw it away
        Tally t = Tally.of(TX, Map.of("a", Vote.COMMIT, "b", Vote.COMMIT, "c", Vote.COMMIT), true, "a").orElseThrow();
        assertThat(t.outcome()).isEqualTo(Outcome.COMMIT);
    }

    @Test
    void votesOfStrangersAreIgnored() {
        assertThat(Tally.of(TX, Map.of("a", Vote.COMMIT, "b", Vote.COMMIT, "zed", Vote.ABORT), false, "a")).isEmpty();
    }

    @Test
    void theCauseOfEachDecisionIsReadBackFromItsReason() {
        Tally commit = Tally.of(TX, Map.of("a", Vote.COMMIT, "b", Vote.COMMIT, "c", Vote.COMMIT), false, "b").orElseThrow();
        Tally voted = Tally.of(TX, Map.of("c", Vote.ABORT), false, "coordinator").orElseThrow();
        Tally late = Tally.of(TX, Map.of("b", Vote.COMMIT), true, "coordinator").orElseThrow();
        assertThat(Tally.cause(Codec.decision(Codec.decision(commit.decision())))).isEqualTo("all-voted-commit");
        assertThat(Tally.cause(Codec.decision(Codec.decision(voted.decision())))).isEqualTo("vote-abort");
        assertThat(Tally.cause(Codec.decision(Codec.decision(late.decision())))).isEqualTo("deadline");
        // the decision written together with an abort vote, and one no Baton site wrote
        assertThat(Tally.cause(new Decision(Outcome.ABORT, "stock.eu-1 voted abort: prepare threw java.io.IOException: disk full"
            + " (recorded by stock.eu-1)"))).isEqualTo("vote-abort");
        assertThat(Tally.cause(new Decision(Outcome.ABORT, "an operator said so; billing voted abort"))).isEqualTo("other");
        assertThat(Tally.cause(new Decision(Outcome.ABORT, ""))).isEqualTo("other");
    }
}

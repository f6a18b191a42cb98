package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransactionHistoryTest {
    private static final List<String> AB = List.of("a", "b");

    private static TransactionHistory committed() {
        TransactionHistory h = new TransactionHistory();
        h.started("t1", "c", AB, Duration.ofSeconds(2), System.nanoTime());
        h.voted("t1", AB, "a", true);
        h.voted("t1", AB, "b", true);
        h.told("t1", AB, "a", "a#1", true);
        h.told("t1", AB, "b", "b#1", true);
        h.reported("t1", "c", true);
        return h;
    }

    @Test
    void aCleanCommitPassesEveryCheck() {
        TransactionHistory h = committed();
        assertThat(h.checkAtomicCommitment().isOk()).isTrue();
        assertThat(h.checkValidity().isOk()).isTrue();
        assertThat(h.checkToldOncePerIncarnation().isOk()).isTrue();
        assertThat(h.checkTermination(Duration.ofSeconds(1)).isOk()).isTrue();
        assertThat(h.everyParticipantTold()).isTrue();
    }

    @Test
    void oneToldCommitAndAnotherAbortIsCaught() {
        TransactionHistory h = committed();
        h.told("t1", AB, "b", "b#2", false);
        assertThat(h.checkAtomicCommitment().violations()).singleElement().asString()
            .contains("b (b#2) told abort for t1").contains("a (a#1) told commit");
    }

    @Test
    void aCommitWithoutEveryCommitVoteIsCaughtEvenForATransactionWhoseStartWasNotRecorded() {
        TransactionHistory h = new TransactionHistory();
        h.voted("t2", AB, "a", true);
        h.voted("t2", AB, "b", false);
        h.told("t2", AB, "a", "a#1", true);
        assertThat(h.checkValidity().violations()).singleElement().asString().contains("[b] never voted commit and [b] voted abort");
    }

    @Test
    void beingToldTwiceInOneIncarnationIsCaughtButOncePerIncarnationIsFine() {
        TransactionHistory h = committed();
        h.told("t1", AB, "a", "a#2", true);
        assertThat(h.checkToldOncePerIncarnation().isOk()).isTrue();
        h.told("t1", AB, "a", "a#2", true);
        assertThat(h.checkToldOncePerIncarnation().violations()).hasSize(1);
    }

    @Test
    void aTransactionNeverDecidedOrDecidedLateIsCaught() {
        TransactionHistory h = new TransactionHistory();
        long longAgo = System.nanoTime() - Duration.ofSeconds(10).toNanos();
        h.started("late", "c", AB, Duration.ofSeconds(1), longAgo);
        h.started("never", "c", AB, Duration.ofSeconds(1), longAgo);
        h.reported("late", "c", false);
        List<String> violations = h.checkTermination(Duration.ofSeconds(2)).violations();
        assertThat(violations).hasSize(2);
        assertThat(violations.get(0)).contains("late").contains("ms after its due time");
        assertThat(violations.get(1)).contains("never seen decided");
        h.healthyFrom(System.nanoTime());
        assertThat(h.checkTermination(Duration.ofSeconds(2)).violations()).as("due from the end of the faults")
            .singleElement().asString().contains("never");
    }
}

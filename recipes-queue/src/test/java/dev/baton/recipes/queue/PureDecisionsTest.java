package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.TransactionFailedException.OpOutcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.zookeeper.KeeperException.Code;
import org.junit.jupiter.api.Test;

class PureDecisionsTest {

    private static TransactionFailedException failedAt(int index, Code code, int ops) {
        List<OpOutcome> outcomes = new java.util.ArrayList<>();
        for (int i = 0; i < ops; i++) {
            outcomes.add(new OpOutcome("/p" + i, i < index ? Code.OK : i == index ? code : Code.RUNTIMEINCONSISTENCY));
        }
        return new TransactionFailedException("transaction", outcomes, index, code);
    }

    @Test
    void receiptThatMovedOnMeansAnEarlierAttemptApplied() {
        assertThat(Receipts.classify(failedAt(0, Code.BADVERSION, 2)).outcome()).isEqualTo(Receipts.Outcome.APPLIED);
    }

    @Test
    void missingReceiptMeansItsSessionEnded() {
        assertThat(Receipts.classify(failedAt(0, Code.NONODE, 2)).outcome()).isEqualTo(Receipts.Outcome.RECEIPT_LOST);
    }

    @Test
    void failureOfACallersOperationIsReportedWithTheCallersIndex() {
        Receipts.Commit c = Receipts.classify(failedAt(2, Code.NONODE, 3));
        assertThat(c.outcome()).isEqualTo(Receipts.Outcome.REJECTED);
        assertThat(c.failedIndex()).isEqualTo(1);
        assertThat(c.code()).isEqualTo(Code.NONODE);
    }

    @Test
    void deadLetterRoundTripsAndLongErrorsAreCut() {
        byte[] item = "payload".getBytes(StandardCharsets.UTF_8);
        DeadLetters.Entry entry = new DeadLetters.Entry("/q/shard-0000000000/queue-0000000001", item, "x".repeat(5_000));
        assertThat(entry.error()).hasSize(DeadLetters.MAX_ERROR_CHARS + 3);
        DeadLetter back = DeadLetters.decode("/q/dead-letters/dead-0000000000", DeadLetters.encode(entry));
        assertThat(back.itemPath()).isEqualTo(entry.itemPath());
        assertThat(back.item()).isEqualTo(item);
        assertThat(back.error()).isEqualTo(entry.error());
        assertThat(back.path()).isEqualTo("/q/dead-letters/dead-0000000000");
    }

    @Test
    void onlyPriorityAndDelayListingsAreRefreshedBeforeTheyAreUsedUp() {
        assertThat(ItemOrder.FIFO.newItemsMayJumpAhead()).isFalse();
        assertThat(ItemOrder.ID.newItemsMayJumpAhead()).isFalse();
        assertThat(ItemOrder.PRIORITY.newItemsMayJumpAhead()).isTrue();
        assertThat(ItemOrder.DELAY.newItemsMayJumpAhead()).isTrue();
    }

    @Test
    void theRetryPauseGrowsWithTheAttemptAndNeverOverflows() {
        assertThat(Delivery.pauseMillis(java.time.Duration.ofMillis(100), 1)).isEqualTo(100);
        assertThat(Delivery.pauseMillis(java.time.Duration.ofMillis(100), 3)).isEqualTo(300);
        assertThat(Delivery.pauseMillis(java.time.Duration.ZERO, 5)).isZero();
        // a backoff too long to count: a very long pause, not an ArithmeticException after the item was taken
        java.time.Duration forever = java.time.temporal.ChronoUnit.FOREVER.getDuration();
        assertThat(Delivery.pauseMillis(forever, 2)).isEqualTo(2 * dev.baton.framework.Timeouts.LONGEST.toMillis());
        assertThat(Delivery.pauseMillis(forever, Integer.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    }
}

package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@EnsembleTest
class ReceiptsTest {
    private static final byte[] NOTE = "test".getBytes(StandardCharsets.UTF_8);

    @Test
    void writeResentAfterALostReplyIsRecognisedAsAppliedNotRepeated(BatonClient client) throws Exception {
        Receipts receipts = new Receipts(client, "/receipts/resent/receipts");
        client.create().creatingParentsIfNeeded().forPath("/receipts/resent/item");
        Receipts.Receipt r = receipts.borrow();
        assertThat(receipts.commit(r, NOTE, tx -> tx.delete("/receipts/resent/item")).outcome()).isEqualTo(Receipts.Outcome.APPLIED);
        // what the retry loop does after a lost reply: send the very same transaction again
        r.version--;
        client.create().forPath("/receipts/resent/item"); // even if the operation itself could apply again
        Receipts.Commit again = receipts.commit(r, NOTE, tx -> tx.delete("/receipts/resent/item"));
        assertThat(again.outcome()).isEqualTo(Receipts.Outcome.APPLIED);
        assertThat(client.checkExists().forPath("/receipts/resent/item")).as("not applied a second time").isNotNull();
        assertThat(receipts.commit(r, NOTE, tx -> tx.delete("/receipts/resent/item")).outcome())
            .as("the receipt's version is known again").isEqualTo(Receipts.Outcome.APPLIED);
    }

    @Test
    void writeWithTheReceiptOfAnEndedSessionIsRefusedAndChangesNothing(BatonClient client, @ConnectString String connect)
        throws Exception {
        Receipts receipts = new Receipts(client, "/receipts/ended/receipts");
        client.create().creatingParentsIfNeeded().forPath("/receipts/ended/item");
        Receipts.Receipt r = receipts.borrow();
        long before = client.sessionId();
        SessionKiller.expire(client, connect, Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(20)).until(() -> client.connectionState().isConnected() && client.sessionId() != before);
        Receipts.Commit c = receipts.commit(r, NOTE, tx -> tx.delete("/receipts/ended/item"));
        assertThat(c.outcome()).isEqualTo(Receipts.Outcome.RECEIPT_LOST);
        assertThat(client.checkExists().forPath("/receipts/ended/item")).isNotNull();
        Receipts.Receipt fresh = receipts.borrow();
        assertThat(fresh.session()).isEqualTo(client.sessionId());
        assertThat(receipts.commit(fresh, NOTE, tx -> tx.delete("/receipts/ended/item")).outcome()).isEqualTo(Receipts.Outcome.APPLIED);
    }
}

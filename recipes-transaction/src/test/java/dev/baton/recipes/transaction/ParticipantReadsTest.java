package dev.baton.recipes.transaction;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What a participant reads: its view keeps the nodes it acts on, not every node of the folder.
 * A view that read every create in the folder made each participant pay for every other site's
 * votes and acknowledgements, and for transactions that do not name it — N(2N + 3) reads per
 * transaction over N participants, the largest cost of the recipe under load.
 */
@EnsembleTest
class ParticipantReadsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final List<String> FIVE = List.of("a", "b", "c", "d", "e");
    private static final int TRANSACTIONS = 4;

    @ConnectString
    String connect;
    private final List<AutoCloseable> open = new ArrayList<>();
    private String folder;

    /** Counts a client's getData attempts (each one read of one node's data). */
    private static final class DataReads implements BatonObserver {
        final AtomicLong count = new AtomicLong();

        @Override
        public void requestCompleted(String operation, long nanos, boolean succeeded) {
            if (operation.equals("getData")) {
                count.incrementAndGet();
            }
        }
    }

    private TransactionParticipant participant(String id, RecordingHandler handler, DataReads reads) throws InterruptedException {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        open.add(client);
        client.addObserver(reads);
        TransactionParticipant p = TransactionParticipant.builder(client, folder, id, handler).build();
        open.add(0, p);
        p.start();
        return p;
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** Runs transactions over {@code ids} one after the other, each until decided commit and cleaned up. */
    private void commitOneAfterAnother(BatonClient client, List<String> ids) throws InterruptedException {
        TransactionCoordinator coordinator = TransactionCoordinator.builder(client, folder).build();
        open.add(0, coordinator);
        TransactionFolder view = new TransactionFolder(client, folder);
        for (int i = 0; i < TRANSACTIONS; i++) {
            Decision decision = coordinator.start(Set.copyOf(ids), ("order " + i).getBytes(UTF_8), Duration.ofSeconds(10)).await(WAIT);
            assertThat(decision).as("transaction %d decided", i).isNotNull();
            assertThat(decision.outcome()).isEqualTo(Outcome.COMMIT);
            await().atMost(WAIT).until(() -> view.transactions().isEmpty());
        }
    }

    @Test
    void aParticipantReadsOnlyTheNodeOfATransactionThatDoesNotNameIt(BatonClient client, TestInfo test) throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        for (String id : FIVE) {
            participant(id, new RecordingHandler(), new DataReads());
        }
        RecordingHandler bystander = new RecordingHandler();
        DataReads bystanderReads = new DataReads();
        participant("z", bystander, bystanderReads);
        long atStart = bystanderReads.count.get();

        commitOneAfterAnother(client, FIVE);

        // the transaction node, to learn it does not name z (read again if its early read could not
        // be used), and the decision if it comes before z has looked: at most 3 reads a transaction.
        // Before, every vote, the decision and every acknowledgement too: 2 * 5 + 3 = 13
        assertThat(bystanderReads.count.get() - atStart)
            .as("reads by a participant named in none of %d transactions of 5 participants", TRANSACTIONS)
            .isLessThanOrEqualTo(3 * TRANSACTIONS);
        assertThat(bystander.prepared).isEmpty();
        assertThat(bystander.told).isEmpty();
    }

    @Test
    void aParticipantsReadsDoNotGrowWithTheOtherParticipantsVotesAndAcknowledgements(BatonClient client, TestInfo test)
        throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        List<RecordingHandler> handlers = new ArrayList<>();
        List<DataReads> reads = new ArrayList<>();
        TransactionFolder seen = new TransactionFolder(client, folder);
        for (String id : FIVE) {
            RecordingHandler h = new RecordingHandler();
            if (id.equals("e")) {
                // e votes last, so the one voter that completes the set (and reads every vote) is e
                h.answering(tx -> {
                    await().atMost(WAIT).until(() -> seen.transaction(tx.id()).map(s -> s.votes().size() == 4).orElse(true));
                    return Vote.COMMIT;
                });
            }
            DataReads r = new DataReads();
            participant(id, h, r);
            handlers.add(h);
            reads.add(r);
        }
        long atStart = reads.stream().mapToLong(r -> r.count.get()).sum();

        commitOneAfterAnother(client, FIVE);

        for (RecordingHandler h : handlers) {
            await().atMost(WAIT).until(() -> h.told.size() == TRANSACTIONS);
            h.told.values().forEach(outcomes -> assertThat(outcomes).containsExactly(Outcome.COMMIT));
        }
        // per transaction each participant's view reads the transaction node, the decision, its own
        // vote and its own acknowledgement (5 * 4), the clean-up check reads the node (5), and e,
        // whose vote completes the set, reads the node, the votes and the decision twice (2 * 7): 39,
        // and 14 more if another voter's read of the names comes after e's vote. Before, the views
        // alone read 5 * (2 * 5 + 3) = 65
        long perTransaction = (reads.stream().mapToLong(r -> r.count.get()).sum() - atStart) / TRANSACTIONS;
        assertThat(perTransaction).as("the 5 participants' reads per transaction").isLessThanOrEqualTo(53);
    }
}

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
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What learning a decision costs: the coordinator and the voter that records the decision send
 * the requests the protocol needs, not a cache's. The coordinator used to watch each decision
 * with a node cache (a persistent watch added and removed, a sync, two reads: five requests where
 * an exists watch and a read do), and the recording voter read the whole transaction back (N + 3
 * requests) where only the decision node changed.
 */
@EnsembleTest
class DecisionRequestsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final List<String> THREE = List.of("a", "b", "c");
    private static final int TRANSACTIONS = 4;

    @ConnectString
    String connect;
    private final List<AutoCloseable> open = new ArrayList<>();
    private String folder;

    /** Counts a client's requests (every attempt), by operation. */
    private static final class Requests implements BatonObserver {
        final Map<String, AtomicLong> byOperation = new ConcurrentHashMap<>();

        @Override
        public void requestCompleted(String operation, long nanos, boolean succeeded) {
            byOperation.computeIfAbsent(operation, k -> new AtomicLong()).incrementAndGet();
        }

        Map<String, Long> snapshot() {
            Map<String, Long> copy = new TreeMap<>();
            byOperation.forEach((op, n) -> copy.put(op, n.get()));
            return copy;
        }

        static long total(Map<String, Long> counts) {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }

        /** The requests since {@code before}, by operation. */
        Map<String, Long> since(Map<String, Long> before) {
            Map<String, Long> now = snapshot();
            now.replaceAll((op, n) -> n - before.getOrDefault(op, 0L));
            return now;
        }
    }

    private BatonClient client(Requests requests) throws InterruptedException {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        open.add(client);
        client.addObserver(requests);
        return client;
    }

    private void participant(String id, RecordingHandler handler, Requests requests) throws InterruptedException {
        TransactionParticipant p = TransactionParticipant.builder(client(requests), folder, id, handler).build();
        open.add(0, p);
        p.start();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** Runs one transaction over {@code ids} until it is decided commit and cleaned up. */
    private void commitOne(TransactionCoordinator coordinator, TransactionFolder view, int i) throws InterruptedException {
        Decision decision = coordinator.start(Set.copyOf(THREE), ("order " + i).getBytes(UTF_8), Duration.ofSeconds(10)).await(WAIT);
        assertThat(decision).as("transaction %d decided", i).isNotNull();
        assertThat(decision.outcome()).isEqualTo(Outcome.COMMIT);
        await().atMost(WAIT).until(() -> view.transactions().isEmpty());
    }

    @Test
    void theCoordinatorSendsAboutSixRequestsPerTransaction(BatonClient client, TestInfo test) throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        for (String id : THREE) {
            participant(id, new RecordingHandler(), new Requests());
        }
        Requests requests = new Requests();
        TransactionCoordinator coordinator = TransactionCoordinator.builder(client(requests), folder).build();
        open.add(0, coordinator);
        TransactionFolder view = new TransactionFolder(client, folder);
        commitOne(coordinator, view, -1); // the first one creates the folder's nodes
        Map<String, Long> atStart = requests.snapshot();

        for (int i = 0; i < TRANSACTIONS; i++) {
            commitOne(coordinator, view, i);
        }

        // per transaction: the registration check, the create, the decision's exists watch and read,
        // the acknowledgement and the clean-up check (6), and the delete when the coordinator is the
        // last to acknowledge. Before: the decision's cache added a watch, synced, read twice and
        // removed the watch (5 for 2), and the clean-up check read the transaction node too: 10 to 11
        Map<String, Long> sent = requests.since(atStart);
        assertThat(Requests.total(sent))
            .as("the coordinator's requests for %d transactions of 3 participants, by operation: %s", TRANSACTIONS, sent)
            .isLessThanOrEqualTo(7 * TRANSACTIONS);
    }

    @Test
    void theVoterThatRecordsTheDecisionReadsBackOnlyTheDecision(BatonClient client, TestInfo test) throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        TransactionFolder view = new TransactionFolder(client, folder);
        participant("a", new RecordingHandler(), new Requests());
        participant("b", new RecordingHandler(), new Requests());
        // c votes last, so c's vote completes the set and c records the commit
        RecordingHandler last = new RecordingHandler().answering(tx -> {
            await().atMost(WAIT).until(() -> view.transaction(tx.id()).map(s -> s.votes().size() == 2).orElse(true));
            return Vote.COMMIT;
        });
        Requests requests = new Requests();
        participant("c", last, requests);
        TransactionCoordinator coordinator = TransactionCoordinator.builder(client, folder).build();
        open.add(0, coordinator);
        commitOne(coordinator, view, -1);
        Map<String, Long> atStart = requests.snapshot();

        for (int i = 0; i < TRANSACTIONS; i++) {
            commitOne(coordinator, view, i);
        }

        await().atMost(WAIT).until(() -> last.told.size() == TRANSACTIONS + 1);
        last.told.values().forEach(outcomes -> assertThat(outcomes).containsExactly(Outcome.COMMIT));
        // per transaction c's view reads the transaction node, its vote, the decision and its
        // acknowledgement (4); c checks for an earlier vote, votes, reads the names, the 3 votes,
        // records, reads the decision back, acknowledges and checks for clean-up (10): 14, and the
        // delete if c is the last to acknowledge. Before, the read-back read the transaction node,
        // the names, the votes and the decision (6 for 1) and the clean-up check the node too: 20 to 21
        Map<String, Long> sent = requests.since(atStart);
        assertThat(Requests.total(sent))
            .as("the recording voter's requests for %d transactions of 3 participants, by operation: %s", TRANSACTIONS, sent)
            .isLessThanOrEqualTo(16 * TRANSACTIONS);
    }
}

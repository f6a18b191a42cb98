package dev.baton.recipes.transaction;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The recipe's promises with every site healthy: commit, abort by vote, abort at the deadline, refused input. */
@EnsembleTest
class TransactionTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @ConnectString
    String connect;
    private final List<AutoCloseable> open = new ArrayList<>();
    private String folder;

    private String folder(TestInfo test) {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        return folder;
    }

    private TransactionParticipant participant(String id, RecordingHandler handler) throws InterruptedException {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        open.add(client);
        TransactionParticipant p = TransactionParticipant.builder(client, folder, id, handler).build();
        open.add(0, p);
        p.start();
        return p;
    }

    private TransactionCoordinator coordinator(BatonClient client) {
        TransactionCoordinator c = TransactionCoordinator.builder(client, folder).build();
        open.add(0, c);
        return c;
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    @Test
    void allVoteCommitSoAllAreToldCommitOnceAndTheNodesAreCleanedUp(BatonClient client, TestInfo test) throws Exception {
        folder(test);
        RecordingHandler a = new RecordingHandler();
        RecordingHandler b = new RecordingHandler();
        RecordingHandler c = new RecordingHandler();
        participant("a", a);
        participant("b", b);
        participant("c", c);

        PendingTransaction tx = coordinator(client).start(Set.of("a", "b", "c"), "move 5 from a to c".getBytes(UTF_8),
            Duration.ofSeconds(10));

        Decision decision = tx.await(WAIT);
        assertThat(decision.outcome()).isEqualTo(Outcome.COMMIT);
        assertThat(decision.reason()).contains("all 3 participants voted commit");
        await().atMost(WAIT).until(() -> a.told.size() + b.told.size() + c.told.size() == 3);
        for (RecordingHandler h : List.of(a, b, c)) {
            assertThat(h.toldAbout(tx.id())).as("told once, commit").containsExactly(Outcome.COMMIT);
            assertThat(new String(h.payloads.get(tx.id()), UTF_8)).isEqualTo("move 5 from a to c");
        }
        TransactionFolder view = new TransactionFolder(client, folder);
        await().atMost(WAIT).until(() -> view.transactions().isEmpty());
        assertThat(view.participants()).containsExactly("a", "b", "c");
    }

    @Test
    void oneAbortVoteAbortsForEveryone(BatonClient client, TestInfo test) throws Exception {
        folder(test);
        RecordingHandler a = new RecordingHandler();
        RecordingHandler b = new RecordingHandler().answering(tx -> Vote.ABORT);
        RecordingHandler c = new RecordingHandler();
        participant("a", a);
        participant("b", b);
        participant("c", c);

        PendingTransaction tx = coordinator(client).start(Set.of("a", "b", "c"), new byte[0], Duration.ofSeconds(10));

        Decision decision = tx.await(WAIT);
        assertThat(decision.outcome()).isEqualTo(Outcome.ABORT);
        assertThat(decision.reason()).startsWith("b voted abort");
        await().atMost(WAIT).until(() -> a.told.size() + b.told.size() + c.told.size() == 3);
        for (RecordingHandler h : List.of(a, b, c)) {
            assertThat(h.toldAbout(tx.id())).containsExactly(Outcome.ABORT);
        }
    }

    @Test
    void aPrepareThatThrowsIsAnAbortVote(BatonClient client, TestInfo test) throws Exception {
        folder(test);
        RecordingHandler a = new RecordingHandler();
        RecordingHandler b = new RecordingHandler().answering(tx -> {
            throw new IllegalStateException("out of stock");
        });
        participant("a", a);
        participant("b", b);

        PendingTransaction tx = coordinator(client).start(Set.of("a", "b"), new byte[0], Duration.ofSeconds(10));

        Decision decision = tx.await(WAIT);
        assertThat(decision.outcome()).isEqualTo(Outcome.ABORT);
        assertThat(decision.reason()).contains("b voted abort: prepare threw java.lang.IllegalStateException: out of stock");
        await().atMost(WAIT).until(() -> a.toldAbout(tx.id()).size() == 1 && b.toldAbout(tx.id()).size() == 1);
        assertThat(a.toldAbout(tx.id())).containsExactly(Outcome.ABORT);
    }

    @Test
    void aParticipantThatNeverAnswersAbortsTheTransactionAtItsDeadline(BatonClient client, TestInfo test) throws Exception {
        folder(test);
        RecordingHandler a = new RecordingHandler();
        CountDownLatch never = new CountDownLatch(1);
        RecordingHandler silent = new RecordingHandler().answering(tx -> {
            never.await(1, TimeUnit.MINUTES);   // does not answer until the test is over
            return Vote.COMMIT;
        });
        participant("a", a);
        participant("silent", silent);
        Duration deadline = Duration.ofMillis(1500);

        long started = System.nanoTime();
        PendingTransaction tx = coordinator(client).start(Set.of("a", "silent"), new byte[0], deadline);
        Decision decision = tx.await(WAIT);
        long tookMillis = (System.nanoTime() - started) / 1_000_000;

        assertThat(decision.outcome()).isEqualTo(Outcome.ABORT);
        assertThat(decision.reason()).contains("deadline of 1500 ms passed without votes from [silent]");
        assertThat(tookMillis).as("decided at the deadline, not before").isGreaterThanOrEqualTo(deadline.toMillis());
        await().atMost(WAIT).until(() -> a.toldAbout(tx.id()).size() == 1);
        assertThat(a.toldAbout(tx.id())).containsExactly(Outcome.ABORT);
        never.countDown();
        await().atMost(WAIT).until(() -> silent.toldAbout(tx.id()).size() == 1);
        assertThat(silent.toldAbout(tx.id())).as("told once its prepare returned").containsExactly(Outcome.ABORT);
    }

    @Test
    void badInputIsRefusedWithATypedErrorAndNothingIsCreated(BatonClient client, TestInfo test) throws Exception {
        folder(test);
        participant("a", new RecordingHandler());
        TransactionCoordinator coordinator = TransactionCoordinator.builder(client, folder).maxPayloadBytes(100).build();
        byte[] small = new byte[10];

        assertThatThrownBy(() -> coordinator.start(Set.of("a", "ghost"), small, Duration.ofSeconds(5)))
            .isInstanceOf(UnknownParticipantException.class)
            .hasMessageContaining("unknown participant(s) [ghost] in " + folder)
            .hasMessageContaining("which are [a]");
        assertThatThrownBy(() -> coordinator.start(Set.of(), small, Duration.ofSeconds(5)))
            .isInstanceOf(InvalidTransactionException.class)
            .hasMessageContaining("at least one participant; the set given was empty");
        assertThatThrownBy(() -> coordinator.start(Set.of("a"), new byte[101], Duration.ofSeconds(5)))
            .isInstanceOf(PayloadTooLargeException.class)
            .hasMessageContaining("is 101 bytes; the coordinator accepts at most 100 bytes");
        assertThatThrownBy(() -> coordinator.start(Set.of("a"), small, Duration.ZERO))
            .isInstanceOf(InvalidTransactionException.class)
            .hasMessageContaining("deadline must be in the future (a positive duration from now), was PT0S");
        assertThatThrownBy(() -> coordinator.start(Set.of("a"), small, Duration.ofSeconds(-3)))
            .isInstanceOf(InvalidTransactionException.class)
            .hasMessageContaining("was PT-3S");
        assertThatThrownBy(() -> coordinator.start(Set.of("a/b"), small, Duration.ofSeconds(5)))
            .isInstanceOf(InvalidTransactionException.class)
            .hasMessageContaining("participant id must be 1 to 100 letters, digits, '.', '_' or '-'")
            .hasMessageContaining("was 'a/b'");
        assertThatThrownBy(() -> coordinator.start(List.of("a", "a"), small, Duration.ofSeconds(5)))
            .isInstanceOf(InvalidTransactionException.class)
            .hasMessageContaining("participant 'a' is named twice in [a, a]");

        assertThat(client.checkExists().forPath(folder + "/transactions")).as("no transaction node was created").isNull();
        assertThat(new TransactionFolder(client, folder).transactions()).isEmpty();
    }

    @Test
    void aNullPayloadOrParticipantIdIsRefusedWithAMessageSayingWhichAndNothingIsCreated(BatonClient client, TestInfo test)
        throws Exception {
        folder(test);
        participant("a", new RecordingHandler());
        TransactionCoordinator coordinator = coordinator(client);
        List<String> withNull = new ArrayList<>(List.of("a"));
        withNull.add(null);

        assertThatThrownBy(() -> coordinator.start(Set.of("a"), null, Duration.ofSeconds(5)))
            .isExactlyInstanceOf(NullPointerException.class)
            .hasMessage("payload must not be null (for no payload, give an empty array)");
        assertThatThrownBy(() -> coordinator.start(withNull, new byte[0], Duration.ofSeconds(5)))
            .isExactlyInstanceOf(NullPointerException.class)
            .hasMessage("participants [a, null] hold a null id; each must be a registered participant id");
        assertThatThrownBy(() -> coordinator.start(null, new byte[0], Duration.ofSeconds(5)))
            .isExactlyInstanceOf(NullPointerException.class)
            .hasMessage("participants must not be null");
        assertThatThrownBy(() -> coordinator.start(Set.of("a"), new byte[0], null))
            .isExactlyInstanceOf(NullPointerException.class)
            .hasMessage("deadline must not be null");
        assertThatThrownBy(() -> TransactionParticipant.builder(client, folder, null, new RecordingHandler()))
            .isExactlyInstanceOf(NullPointerException.class)
            .hasMessage("participant id must not be null; it must be 1 to 100 letters, digits, '.', '_' or '-'");

        assertThat(client.checkExists().forPath(folder + "/transactions")).as("no transaction node was created").isNull();
    }

    @Test
    void aTransactionIdThatCannotNameANodeIsRefusedByTheFolderView(BatonClient client, TestInfo test) {
        folder(test);
        TransactionFolder view = new TransactionFolder(client, folder);
        for (String id : List.of(".", "..", "", "a/b")) {
            assertThatThrownBy(() -> view.transaction(id)).as("id '%s'", id)
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("a transaction id is a node name (not empty, without '/', not '.' or '..'); was '" + id + "'");
        }
    }
}

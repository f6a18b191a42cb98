package dev.baton.recipes.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Sites that die mid-transaction: the others still reach the outcome, and a restarted participant learns it. */
@EnsembleTest
class TransactionCrashTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @ConnectString
    String connect;
    private final List<AutoCloseable> open = new ArrayList<>();
    private String folder;

    private BatonClient client() {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        open.add(client);
        return client;
    }

    private TransactionParticipant participant(BatonClient client, String id, RecordingHandler handler, Duration retention)
        throws InterruptedException {
        TransactionParticipant p = TransactionParticipant.builder(client, folder, id, handler).retention(retention).build();
        open.add(0, p);
        p.start();
        return p;
    }

    private TransactionParticipant participant(String id, RecordingHandler handler) throws InterruptedException {
        return participant(client(), id, handler, TransactionParticipant.DEFAULT_RETENTION);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private static RecordingHandler blockedUntil(CountDownLatch go, Vote vote) {
        return new RecordingHandler().answering(tx -> {
            go.await(1, TimeUnit.MINUTES);
            return vote;
        });
    }

    @Test
    void aCoordinatorKilledAfterCreatingTheTransactionDoesNotStopTheParticipantsCommitting(TestInfo test) throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        CountDownLatch coordinatorDead = new CountDownLatch(1);
        RecordingHandler a = blockedUntil(coordinatorDead, Vote.COMMIT);
        RecordingHandler b = blockedUntil(coordinatorDead, Vote.COMMIT);
        participant("a", a);
        participant("b", b);
        BatonClient coordinatorClient = client();

        PendingTransaction tx = TransactionCoordinator.builder(coordinatorClient, folder).build()
            .start(Set.of("a", "b"), new byte[0], Duration.ofSeconds(2));
        coordinatorClient.close(); // the coordinator dies with its deadline timer, before anyone voted
        coordinatorDead.countDown();

        await().atMost(WAIT).until(() -> a.toldAbout(tx.id()).size() == 1 && b.toldAbout(tx.id()).size() == 1);
        assertThat(a.toldAbout(tx.id())).containsExactly(Outcome.COMMIT);
        assertThat(b.toldAbout(tx.id())).containsExactly(Outcome.COMMIT);
        TransactionStatus status = new TransactionFolder(client(), folder).transaction(tx.id()).orElseThrow();
        assertThat(status.decision().orElseThrow().reason()).contains("all 2 participants voted commit (recorded by ");
        assertThat(status.coordinatorAcknowledged()).as("the dead coordinator never read it: the nodes wait for retention").isFalse();
    }

    @Test
    void aCoordinatorWhoseSessionIsExpiredStillHasItsTransactionAbortedAtTheParticipantsDeadline(TestInfo test) throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        CountDownLatch never = new CountDownLatch(1);
        RecordingHandler a = new RecordingHandler();
        participant("a", a);
        participant("silent", blockedUntil(never, Vote.COMMIT));
        BatonClient coordinatorClient = client();
        TransactionCoordinator coordinator = TransactionCoordinator.builder(coordinatorClient, folder).build();

        long started = System.nanoTime();
        PendingTransaction tx = coordinator.start(Set.of("a", "silent"), new byte[0], Duration.ofMillis(1500));
        // the coordinator's session ends on the servers, and the coordinator is gone before its deadline
        SessionKiller.expire(coordinatorClient, connect, Duration.ofSeconds(10));
        coordinator.close();
        coordinatorClient.close();

        await().atMost(WAIT).until(() -> a.toldAbout(tx.id()).size() == 1);
        assertThat(a.toldAbout(tx.id())).containsExactly(Outcome.ABORT);
        assertThat((System.nanoTime() - started) / 1_000_000).as("not before the deadline").isGreaterThanOrEqualTo(1500);
        TransactionStatus status = new TransactionFolder(client(), folder).transaction(tx.id()).orElseThrow();
        assertThat(status.decision().orElseThrow().reason()).as("a participant's own deadline, not the coordinator's")
            .matches("deadline of 1500 ms passed without votes from \\[silent\\] \\(recorded by (a|silent)\\)");
        never.countDown();
    }

    @Test
    void aCoordinatorWhoseSessionExpiredWhileWaitingLearnsTheDecisionLongBeforeItsDeadline(TestInfo test) throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        CountDownLatch mayVote = new CountDownLatch(1);
        participant("a", blockedUntil(mayVote, Vote.COMMIT));
        participant("b", blockedUntil(mayVote, Vote.COMMIT));
        BatonClient coordinatorClient = client();
        AtomicInteger looks = new AtomicInteger();
        coordinatorClient.addObserver(new BatonObserver() {
            @Override
            public void requestCompleted(String operation, long nanos, boolean succeeded) {
                if (operation.equals("checkExists") && succeeded) {
                    looks.incrementAndGet();
                }
            }
        });
        TransactionCoordinator coordinator = TransactionCoordinator.builder(coordinatorClient, folder).build();
        open.add(0, coordinator);

        PendingTransaction tx = coordinator.start(Set.of("a", "b"), new byte[0], Duration.ofMinutes(5));
        await().atMost(WAIT).until(() -> looks.get() >= 1); // its watch on the decision is set
        // the watch goes with the session; the client builds a new one by itself
        SessionKiller.expire(coordinatorClient, connect, Duration.ofSeconds(10));
        mayVote.countDown();

        // long before the coordinator's 5-minute deadline, at which it would read the decision afresh
        Decision decision = tx.await(WAIT);
        assertThat(decision).as("the decision, learned through a watch set again on the new session").isNotNull();
        assertThat(decision.outcome()).isEqualTo(Outcome.COMMIT);
    }

    @Test
    void aParticipantKilledAfterVotingLearnsTheOutcomeOnRestartWithoutPreparingAgain(TestInfo test) throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        CountDownLatch aIsDead = new CountDownLatch(1);
        RecordingHandler a = new RecordingHandler();
        BatonClient aClient = client();
        participant(aClient, "a", a, TransactionParticipant.DEFAULT_RETENTION);
        RecordingHandler b = blockedUntil(aIsDead, Vote.COMMIT);
        participant("b", b);
        BatonClient coordinatorClient = client();
        TransactionFolder view = new TransactionFolder(coordinatorClient, folder);

        PendingTransaction tx = TransactionCoordinator.builder(coordinatorClient, folder).build()
            .start(Set.of("a", "b"), new byte[0], Duration.ofSeconds(10));
        await().atMost(WAIT).until(() -> view.transaction(tx.id()).orElseThrow().votes().containsKey("a"));
        aClient.close(); // a dies after voting, before the decision
        aIsDead.countDown();
        assertThat(tx.await(WAIT).outcome()).isEqualTo(Outcome.COMMIT);
        assertThat(a.toldAbout(tx.id())).as("the dead incarnation was told nothing").isEmpty();

        RecordingHandler aAgain = new RecordingHandler();
        participant("a", aAgain);

        await().atMost(WAIT).until(() -> aAgain.toldAbout(tx.id()).size() == 1);
        assertThat(aAgain.toldAbout(tx.id())).containsExactly(Outcome.COMMIT);
        assertThat(aAgain.prepared).as("its vote was on the servers: no second prepare").isEmpty();
        await().atMost(WAIT).until(() -> view.transaction(tx.id()).isEmpty());
    }

    @Test
    void aParticipantRestartedWhileItsVoteIsUndecidedWaitsForTheDecisionAndIsToldOnce(TestInfo test) throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        CountDownLatch bMayVote = new CountDownLatch(1);
        BatonClient aClient = client();
        participant(aClient, "a", new RecordingHandler(), TransactionParticipant.DEFAULT_RETENTION);
        RecordingHandler b = blockedUntil(bMayVote, Vote.ABORT);
        participant("b", b);
        BatonClient coordinatorClient = client();
        TransactionFolder view = new TransactionFolder(coordinatorClient, folder);
        PendingTransaction tx = TransactionCoordinator.builder(coordinatorClient, folder).build()
            .start(Set.of("a", "b"), new byte[0], Duration.ofSeconds(10));
        await().atMost(WAIT).until(() -> view.transaction(tx.id()).orElseThrow().votes().containsKey("a"));
        aClient.close();

        RecordingHandler aAgain = new RecordingHandler();
        participant("a", aAgain);   // back before the decision
        bMayVote.countDown();

        assertThat(tx.await(WAIT).outcome()).isEqualTo(Outcome.ABORT);
        await().atMost(WAIT).until(() -> aAgain.toldAbout(tx.id()).size() == 1);
        assertThat(aAgain.toldAbout(tx.id())).containsExactly(Outcome.ABORT);
        assertThat(aAgain.prepared).isEmpty();
    }

    @Test
    void anAcknowledgedTransactionIsNotToldAgainAfterARestartAndRetentionCleansItUp(TestInfo test) throws Exception {
        folder = "/tx/" + test.getTestMethod().orElseThrow().getName();
        RecordingHandler a = new RecordingHandler();
        BatonClient aClient = client();
        TransactionParticipant first = participant(aClient, "a", a, TransactionParticipant.DEFAULT_RETENTION);
        BatonClient coordinatorClient = client();
        TransactionCoordinator coordinator = TransactionCoordinator.builder(coordinatorClient, folder).build();
        PendingTransaction tx = coordinator.start(Set.of("a"), new byte[0], Duration.ofSeconds(10));
        coordinatorClient.close(); // no coordinator acknowledgement: the nodes stay until retention
        TransactionFolder view = new TransactionFolder(client(), folder);
        await().atMost(WAIT).until(() -> view.transaction(tx.id()).map(s -> s.acknowledged().contains("a")).orElse(false));
        assertThat(a.toldAbout(tx.id())).containsExactly(Outcome.COMMIT);
        first.close();

        RecordingHandler aAgain = new RecordingHandler();
        participant(client(), "a", aAgain, Duration.ofMillis(500));

        await().atMost(WAIT).until(() -> view.transaction(tx.id()).isEmpty());
        assertThat(aAgain.toldAbout(tx.id())).as("acknowledged by the earlier incarnation: not told again").isEmpty();
        assertThat(aAgain.prepared).isEmpty();
    }
}

package dev.baton.recipes.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientLink;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A coordinator closed, with its client, right after it read the decision: the way a one-shot
 * program (a script, a batch job) ends. Its acknowledgement, and the clean-up after it, still
 * happen, so a transaction every party acknowledged does not stay behind.
 */
@EnsembleTest
class CoordinatorCloseTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    @Test
    void aCoordinatorClosedWithItsClientRightAfterTheDecisionStillCleansUpAsTheLastToAcknowledge(BatonClient pa, BatonClient pb)
        throws Exception {
        String folder = "/tx/closed-right-after-the-decision";
        RecordingHandler a = new RecordingHandler();
        RecordingHandler b = new RecordingHandler();
        TransactionFolder view = new TransactionFolder(pa, folder);
        try (ClientLink link = ClientLink.to(ensemble);
             TransactionParticipant pA = TransactionParticipant.builder(pa, folder, "a", a).build();
             TransactionParticipant pB = TransactionParticipant.builder(pb, folder, "b", b).build()) {
            pA.start();
            pB.start();
            BatonClient client = TestClients.started(BatonClient.builder().connectString(link.connectString())
                .sessionTimeout(Duration.ofSeconds(20)));
            TransactionCoordinator coordinator = TransactionCoordinator.builder(client, folder).build();
            PendingTransaction tx = coordinator.start(Set.of("a", "b"), new byte[0], Duration.ofMinutes(5));
            // the coordinator hears nothing until both participants were told and acknowledged: its acknowledgement is
            // the last, so the clean-up is its to do
            link.cut();
            await("both participants told and acknowledged").atMost(WAIT).until(() -> view.transaction(tx.id())
                .filter(s -> s.acknowledged().containsAll(Set.of("a", "b"))).isPresent());
            assertThat(view.transaction(tx.id()).orElseThrow().coordinatorAcknowledged()).isFalse();
            link.heal();

            assertThat(tx.await(WAIT).outcome()).isEqualTo(Outcome.COMMIT);
            coordinator.close();
            client.close();

            assertThat(a.toldAbout(tx.id())).containsExactly(Outcome.COMMIT);
            assertThat(b.toldAbout(tx.id())).containsExactly(Outcome.COMMIT);
            assertThat(view.transaction(tx.id())).as("a transaction every party acknowledged, once its coordinator closed")
                .isEmpty();
        }
    }

    @Test
    void closeWithoutAConnectionReturnsAtOnceAndAcknowledgesOnceTheClientIsBack(BatonClient pa) throws Exception {
        String folder = "/tx/closed-without-a-connection";
        Duration connectionTimeout = Duration.ofSeconds(20);
        CountDownLatch mayVote = new CountDownLatch(1);
        TransactionFolder view = new TransactionFolder(pa, folder);
        try (ClientLink link = ClientLink.to(ensemble);
             TransactionParticipant a = TransactionParticipant.builder(pa, folder, "a", new RecordingHandler().answering(tx -> {
                 mayVote.await(1, TimeUnit.MINUTES);
                 return Vote.COMMIT;
             })).build();
             BatonClient client = TestClients.started(BatonClient.builder().connectString(link.connectString())
                 .sessionTimeout(Duration.ofSeconds(60)).connectionTimeout(connectionTimeout))) {
            a.start();
            TransactionCoordinator coordinator = TransactionCoordinator.builder(client, folder).build();
            PendingTransaction tx = coordinator.start(Set.of("a"), new byte[0], Duration.ofMinutes(5));
            link.cut();
            await().atMost(WAIT).until(() -> !client.connectionState().isConnected());

            long began = System.nanoTime();
            coordinator.close();
            assertThat(Duration.ofNanos(System.nanoTime() - began)).as("close() while the ensemble is out of reach")
                .isLessThan(connectionTimeout.dividedBy(2));
            assertThatThrownBy(() -> tx.await(WAIT)).isInstanceOf(TransactionException.class)
                .hasMessageContaining("the coordinator was closed before transaction " + tx.id() + " was decided");

            link.heal();
            await("the coordinator's acknowledgement, once its client is back").atMost(WAIT)
                .until(() -> view.transaction(tx.id()).map(TransactionStatus::coordinatorAcknowledged).orElse(false));
            mayVote.countDown();
        }
    }
}

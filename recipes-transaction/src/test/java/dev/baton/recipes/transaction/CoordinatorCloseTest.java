package dev.baton.recipes.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientLink;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.Set;
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
}

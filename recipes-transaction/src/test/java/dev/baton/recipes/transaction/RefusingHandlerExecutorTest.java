package dev.baton.recipes.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.FullPool;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A handler executor of the caller's that refuses for a while (a bounded pool that is full) delays
 * the handler's calls and loses none. Before, a refused prepare was dropped with a warning: the
 * participant never voted, and the transaction waited for its timeout and aborted.
 */
@EnsembleTest
class RefusingHandlerExecutorTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void aPrepareAndCommitRefusedForAWhileStillRunAndTheTransactionCommits(BatonClient client) throws Exception {
        String folder = "/tx/refusing-handler-executor";
        RecordingHandler a = new RecordingHandler();
        try (FullPool handlerPool = new FullPool("full-handler-pool");
             TransactionParticipant participant = TransactionParticipant.builder(client, folder, "a", a)
                 .handlerExecutor(handlerPool).build();
             TransactionCoordinator coordinator = TransactionCoordinator.builder(client, folder).build()) {
            participant.start();
            handlerPool.refuse(true);
            PendingTransaction tx = coordinator.start(Set.of("a"), new byte[0], Duration.ofMinutes(1));
            await().atMost(WAIT).until(() -> handlerPool.refused() > 0);
            assertThat(a.prepared).as("nothing prepared while the pool refuses").isEmpty();

            handlerPool.refuse(false);
            Decision decision = tx.await(WAIT);
            assertThat(decision).as("decided within %s: the participant voted once its pool took the prepare", WAIT).isNotNull();
            assertThat(decision.outcome()).isEqualTo(Outcome.COMMIT);
            await("the handler is told commit").atMost(WAIT).until(() -> a.toldAbout(tx.id()).size() == 1);
            assertThat(a.toldAbout(tx.id())).containsExactly(Outcome.COMMIT);
        }
    }
}

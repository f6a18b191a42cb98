package dev.baton.recipes.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientLink;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A participant whose {@link TransactionParticipant#start()} failed takes no part: it is closed, not half started. */
@EnsembleTest
class ParticipantStartTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    @Test
    void aParticipantInterruptedWhileItsFolderLoadsIsClosedAndNeverVotes(BatonClient other) throws Exception {
        String folder = "/tx/interrupted-start";
        // something to load: the view needs more than one read, so start() waits for it
        other.create().creatingParentsIfNeeded().forPath(folder + "/transactions/not-a-transaction");
        RecordingHandler handler = new RecordingHandler();
        try (ClientLink link = ClientLink.to(ensemble);
             BatonClient client = TestClients.started(BatonClient.builder().connectString(link.connectString())
                 .sessionTimeout(Duration.ofSeconds(30)))) {
            TransactionParticipant p = TransactionParticipant.builder(client, folder, "p", handler).build();
            Thread starter = Thread.currentThread();
            AtomicBoolean frozen = new AtomicBoolean();
            // registered, the view's first read answered: the link freezes, and start() is interrupted while it waits
            client.addObserver(new BatonObserver() {
                @Override
                public void requestCompleted(String operation, long nanos, boolean succeeded) {
                    if (!operation.equals("create") && frozen.compareAndSet(false, true)) {
                        link.pause();
                        starter.interrupt();
                    }
                }
            });
            assertThatThrownBy(p::start).isInstanceOf(InterruptedException.class);
            assertThat(Thread.interrupted()).as("the interrupt was taken by start()").isFalse();
            link.resume();

            PendingTransaction tx = TransactionCoordinator.builder(other, folder).build()
                .start(Set.of("p"), new byte[0], Duration.ofSeconds(3));
            Decision decision = tx.await(WAIT);
            assertThat(decision.reason()).as("the participant whose start failed did not vote")
                .startsWith("deadline of 3000 ms passed without votes from [p]");
            assertThat(handler.prepared).isEmpty();
            assertThatThrownBy(p::start).isInstanceOf(IllegalStateException.class).hasMessage("participant p is closed");
            await().atMost(WAIT).until(client.connectionState()::isConnected);
        }
    }

    @Test
    void startingOnAClientThatWasNeverStartedFailsAtOnceAndWorksOnceItIs(BatonClient other) throws Exception {
        // the newcomer's slip: build(), then the participant, and client.start() forgotten. Until
        // 2026-11-28 start() failed on its first create ("create /tx/unstarted/..."), which closed the
        // participant for good: even after client.start() it could only say "participant p is closed".
        String folder = "/tx/unstarted";
        RecordingHandler handler = new RecordingHandler();
        try (BatonClient unstarted = BatonClient.builder().connectString(ensemble.connectString()).build();
             TransactionParticipant p = TransactionParticipant.builder(unstarted, folder, "p", handler).build()) {
            assertThatThrownBy(p::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the transaction participant /tx/unstarted/participants/p: the client is not started; call start() first");

            unstarted.start();
            p.start();
            PendingTransaction tx = TransactionCoordinator.builder(other, folder).build()
                .start(Set.of("p"), new byte[0], WAIT);
            assertThat(tx.await(WAIT).isCommit()).as("the same participant votes once its client is started").isTrue();
            assertThat(handler.prepared).containsExactly(tx.id());
        }
    }
}

package dev.baton.recipes.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientLink;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's watch on a transaction's decision across reconnections of one session:
 * ZooKeeper sets the watch again itself, so the decision is read once when it comes, however
 * often the connection dropped meanwhile (a review found each reconnection added a watcher, and
 * with it a read: three reconnections, four reads).
 */
@EnsembleTest
class DecisionWatchReconnectTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    @Test
    void aCoordinatorReconnectedThreeTimesInOneSessionReadsTheDecisionOnce(BatonClient pa, BatonClient pb) throws Exception {
        String folder = "/tx/decision-watch-reconnects";
        CountDownLatch mayVote = new CountDownLatch(1);
        RecordingHandler.Answer waitThenCommit = tx -> {
            mayVote.await(1, TimeUnit.MINUTES);
            return Vote.COMMIT;
        };
        AtomicInteger looks = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        try (ClientLink link = ClientLink.to(ensemble);
             BatonClient client = TestClients.started(BatonClient.builder().connectString(link.connectString())
                 .sessionTimeout(Duration.ofSeconds(20)));
             TransactionParticipant a = TransactionParticipant.builder(pa, folder, "a", new RecordingHandler().answering(waitThenCommit)).build();
             TransactionParticipant b = TransactionParticipant.builder(pb, folder, "b", new RecordingHandler().answering(waitThenCommit)).build();
             TransactionCoordinator coordinator = TransactionCoordinator.builder(client, folder).build()) {
            a.start();
            b.start();
            client.addObserver(new BatonObserver() {
                @Override
                public void requestCompleted(String operation, long nanos, boolean succeeded) {
                    if (operation.equals("checkExists") && succeeded) {
                        looks.incrementAndGet();
                    }
                    if (operation.equals("getData")) {
                        reads.incrementAndGet();
                    }
                }
            });
            long session = client.sessionId();
            PendingTransaction tx = coordinator.start(Set.of("a", "b"), new byte[0], Duration.ofMinutes(5));
            await("the coordinator's first look").atMost(WAIT).until(() -> looks.get() >= 1);
            for (int i = 0; i < 3; i++) {
                link.cut();
                await().atMost(WAIT).until(() -> !client.connectionState().isConnected());
                link.heal();
                await().atMost(WAIT).until(() -> client.connectionState().isConnected());
            }
            assertThat(client.sessionId()).as("one session throughout").isEqualTo(session);
            int readsBefore = reads.get();
            mayVote.countDown();
            assertThat(tx.await(WAIT).outcome()).isEqualTo(Outcome.COMMIT);
            // every watcher the decision's creation fired has sent its read once these three steps are through: the
            // event came before the first sync's reply, its handlers ran on the event executor before the marker, and
            // their reads were answered before the second sync's reply
            client.sync().forPath(folder);
            CompletableFuture<Void> marker = new CompletableFuture<>();
            client.eventExecutor().execute(() -> marker.complete(null));
            marker.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            client.sync().forPath(folder);
            assertThat(reads.get() - readsBefore).as("reads of the decision once it was created").isEqualTo(1);
        }
    }
}

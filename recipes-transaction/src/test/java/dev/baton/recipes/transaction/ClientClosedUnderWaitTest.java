package dev.baton.recipes.transaction;

import static dev.baton.test.CloseUnderWait.endsWithClientClosed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientClosingListener;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientLink;
import dev.baton.test.EnsembleTest;
import dev.baton.test.OneShotWatches;
import dev.baton.test.TestClients;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * A transaction call that waits through a client ends at once with {@code ClientClosedException}
 * when that client is closed, instead of waiting out its timeout: a closed client reads no
 * decision and loads no folder any more.
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    /** Far longer than {@code CloseUnderWait.PROMPTLY}: a wait that runs its course fails the test. */
    private static final Duration LONG = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;

    /** The paths where {@code client} holds a persistent recursive watch (a cache's), as its ZooKeeper handle lists them. */
    @SuppressWarnings("unchecked")
    private static List<String> recursiveWatches(BatonClient client) throws Exception {
        Method list = ZooKeeper.class.getDeclaredMethod("getPersistentRecursiveWatches");   // protected, kept for tests
        list.setAccessible(true);
        return (List<String>) list.invoke(client.zookeeper());
    }

    @Test
    void aCoordinatorAwaitingTheDecisionEnds(BatonClient participantClient) throws Exception {
        String folder = "/closed-under-wait/coordinator";
        CountDownLatch mayVote = new CountDownLatch(1);
        try (TransactionParticipant a = TransactionParticipant.builder(participantClient, folder, "a",
            new RecordingHandler().answering(tx -> {
                mayVote.await(1, TimeUnit.MINUTES);   // no vote, so no decision, while the coordinator waits
                return Vote.COMMIT;
            })).build()) {
            a.start();
            BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
            TransactionCoordinator coordinator = TransactionCoordinator.builder(client, folder).build();
            PendingTransaction tx = coordinator.start(Set.of("a"), new byte[0], Duration.ofMinutes(5));
            // waiting once its watch for the decision is set
            endsWithClientClosed(client, () -> OneShotWatches.EXISTS.on(client).contains(Layout.decision(tx.path())),
                () -> tx.await(LONG));
            assertThat(tx.decision()).as("the asynchronous face of the same wait").failsWithin(Duration.ofSeconds(1))
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(ClientClosedException.class);
            mayVote.countDown();
        }
    }

    @Test
    void aParticipantStartWaitingForTheFolderToLoadEnds() throws Exception {
        String folder = "/closed-under-wait/participant";
        try (ClientLink link = ClientLink.to(ensemble)) {
            BatonClient client = TestClients.started(BatonClient.builder().connectString(link.connectString())
                .sessionTimeout(Duration.ofSeconds(30)));
            TransactionParticipant a = TransactionParticipant.builder(client, folder, "a", new RecordingHandler())
                .startTimeout(LONG).build();
            // a slow road: the folder's load (its watch, a sync, the reads) takes round trips of seconds
            link.delay(Duration.ofMillis(1500));
            // waiting for the load once its watch is set: the sync and the reads are still to come
            endsWithClientClosed(client, () -> recursiveWatches(client).contains(folder + "/transactions"), a::start);
        }
    }

    @Test
    void aDecisionReadAsTheClientClosesIsStillTheDecision(BatonClient participantClient) throws Exception {
        String folder = "/closed-under-wait/decided";
        try (TransactionParticipant a = TransactionParticipant.builder(participantClient, folder, "a", new RecordingHandler())
            .build()) {
            a.start();
            BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
            CountDownLatch reporting = new CountDownLatch(1);
            CountDownLatch closing = new CountDownLatch(1);
            // the coordinator reports the decision it read before it hands it over: hold it there while the client closes
            client.addObserver(new BatonObserver() {
                @Override
                public void transactionDecided(String decidedFolder, boolean committed, String cause, long nanos) {
                    reporting.countDown();
                    try {
                        closing.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            PendingTransaction tx = TransactionCoordinator.builder(client, folder).build()
                .start(Set.of("a"), new byte[0], Duration.ofMinutes(5));
            assertThat(reporting.await(30, TimeUnit.SECONDS)).as("the decision read").isTrue();
            // told after the transaction's own closing listener, added earlier
            client.addConnectionStateListener((ClientClosingListener) closing::countDown);
            Thread closer = new Thread(client::close, "closer");
            closer.setDaemon(true);
            closer.start();
            assertThat(tx.decision()).as("a decision read before the close is the transaction's outcome")
                .succeedsWithin(Duration.ofSeconds(20)).extracting(Decision::isCommit).isEqualTo(true);
            closer.join(TimeUnit.SECONDS.toMillis(20));
        }
    }
}

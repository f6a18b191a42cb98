package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Grant;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * A semaphore waiter whose session expires while its lease node is being created stays in line:
 * it takes a new place (a new lease node, on the new session) and acquires once the holder goes,
 * within its deadline. The window is driven exactly by {@link SessionEndsDuringLeaseCreate}.
 */
@EnsembleTest
class SemaphoreWaiterExpiryTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;

    @Test
    void semaphoreWaiterWhoseSessionEndsDuringItsLeaseCreateQueuesAgainAndAcquires(BatonClient holderClient) throws Exception {
        String path = "/expiry-during-create/semaphore";
        Lease held = new InterProcessSemaphoreV2(holderClient, path, 1).acquire();
        waiterQueuesAgainAndAcquires(holderClient, path, held,
            client -> new InterProcessSemaphoreV2(client, path, 1).acquireAsync(DEADLINE));
    }

    @Test
    void semaphoreMutexWaiterWhoseSessionEndsDuringItsLeaseCreateQueuesAgainAndAcquires(BatonClient holderClient) throws Exception {
        String path = "/expiry-during-create/mutex";
        LockLease held = new InterProcessSemaphoreMutex(holderClient, path).acquireLease();
        waiterQueuesAgainAndAcquires(holderClient, path, held,
            client -> new InterProcessSemaphoreMutex(client, path).acquireAsync(DEADLINE));
    }

    private void waiterQueuesAgainAndAcquires(BatonClient observer, String path, Grant held,
                                              Function<BatonClient, CompletableFuture<? extends Grant>> acquire) throws Exception {
        InterProcessSemaphoreV2 looking = new InterProcessSemaphoreV2(observer, path, 1);
        try (BatonClient waiterClient = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            SessionEndsDuringLeaseCreate window = new SessionEndsDuringLeaseCreate(waiterClient, ensemble.connectString(), WAIT);
            long started = System.nanoTime();
            CompletableFuture<? extends Grant> waiting = acquire.apply(window.client());
            long oldSession = window.expiredSession().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            // stays in line: a new lease node next to the holder's, owned by the waiter's new session
            await().atMost(WAIT).until(() -> waiting.isDone() || looking.participantNodes().size() == 2);
            assertThat(waiting).as("the waiter after its session ended during the lease create").isNotDone();
            List<String> line = looking.participantNodes();
            assertThat(line.get(0)).isEqualTo(held.nodePaths().get(0).substring(held.nodePaths().get(0).lastIndexOf('/') + 1));
            Stat newTicket = observer.checkExists().forPath(path + "/" + InterProcessSemaphoreV2.LEASES + "/" + line.get(1));
            assertThat(newTicket).isNotNull();
            assertThat(newTicket.getEphemeralOwner()).as("owner of the waiter's new lease node")
                .isNotEqualTo(oldSession).isEqualTo(waiterClient.sessionId());

            held.release();
            Grant acquired = waiting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(acquired).as("acquired within its deadline of " + DEADLINE).isNotNull();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE);
            assertThat(acquired.isValid()).isTrue();
            assertThat(acquired.nodePaths()).singleElement().asString().endsWith("/" + line.get(1));
            assertThat(acquired.fencingToken()).isGreaterThan(held.fencingToken());
            acquired.release();
            await().atMost(WAIT).until(() -> looking.participantNodes().isEmpty()
                && Nodes.children(observer, path + "/" + InterProcessSemaphoreV2.LOCKS).isEmpty());
        }
    }
}

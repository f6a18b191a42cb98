package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Grant;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A waiter that waits in line for longer than its session timeout gets a hold it can trust. Holds
 * under the default error policy end when the leader-contact clock says the session may be
 * expiring; a waiter that let that clock go stale while it waited (no request of its own reached
 * the leader, only ZooKeeper's pings) would be handed a hold already past its deadline and lose it
 * at once. Found with the semaphore: "hold of .../leases/...-lease-0000000001 lost: no round trip
 * confirmed by the ensemble's leader for the session timeout minus PT1S" right after the grant.
 */
@EnsembleTest
class LongWaitTest {
    private static final Duration SESSION = Duration.ofSeconds(2);
    /** Two session timeouts in line: the clock, left alone, is then a whole session timeout stale. */
    private static final Duration IN_LINE = SESSION.multipliedBy(2);
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void everyKindOfLockGrantedAfterALongWaitStaysValid(BatonClient holder) throws Exception {
        // the three wait side by side, so that the test waits two session timeouts once
        List<Grant> held = List.of(
            new InterProcessSemaphoreV2(holder, "/long-wait/semaphore", 1).acquire(WAIT),
            new InterProcessSemaphoreMutex(holder, "/long-wait/semaphore-mutex").acquireLease(),
            new InterProcessMutex(holder, "/long-wait/mutex").acquireLease());
        List<String> kinds = List.of("semaphore", "semaphore mutex", "mutex");
        List<BatonClient> waiters = new ArrayList<>();
        try {
            List<Function<BatonClient, CompletableFuture<? extends Grant>>> acquire = List.of(
                c -> new InterProcessSemaphoreV2(c, "/long-wait/semaphore", 1).acquireAsync(WAIT.multipliedBy(2)),
                c -> new InterProcessSemaphoreMutex(c, "/long-wait/semaphore-mutex").acquireAsync(WAIT.multipliedBy(2)),
                c -> new InterProcessMutex(c, "/long-wait/mutex").acquireAsync(WAIT.multipliedBy(2)));
            List<CompletableFuture<? extends Grant>> waiting = new ArrayList<>();
            for (Function<BatonClient, CompletableFuture<? extends Grant>> a : acquire) {
                BatonClient client = TestClients.started(ensemble.connectString(), SESSION);
                waiters.add(client);
                waiting.add(a.apply(client));
            }
            long since = System.nanoTime();
            // the waiters stay in line, doing nothing a user would see, for two session timeouts
            await().atMost(WAIT).pollInterval(Duration.ofMillis(50))
                .until(() -> waiting.stream().anyMatch(CompletableFuture::isDone) || System.nanoTime() - since >= IN_LINE.toNanos());
            for (int i = 0; i < kinds.size(); i++) {
                assertThat(waiting.get(i)).as("the %s waiter while the lock is held", kinds.get(i)).isNotDone();
                held.get(i).release();
            }
            List<Grant> granted = new ArrayList<>();
            for (int i = 0; i < kinds.size(); i++) {
                Grant g = waiting.get(i).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(g).as("the %s granted within its deadline", kinds.get(i)).isNotNull();
                granted.add(g);
            }
            // valid now and for a whole session timeout more: the clock was kept while they waited
            await().during(SESSION).atMost(SESSION.multipliedBy(3)).pollInterval(Duration.ofMillis(20))
                .until(() -> granted.stream().allMatch(Grant::isValid));
            for (int i = 0; i < kinds.size(); i++) {
                assertThat(granted.get(i).lossReason()).as("why the %s was lost", kinds.get(i)).isEmpty();
                granted.get(i).release();
            }
        } finally {
            waiters.forEach(BatonClient::close);
        }
    }
}

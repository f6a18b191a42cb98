package dev.baton.recipes.lock.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.LockLease;
import dev.baton.recipes.lock.LockOwnershipLostException;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.history.Event;
import dev.baton.test.history.History;
import dev.baton.test.history.MutualExclusion;
import dev.baton.test.history.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The example of docs/testing.md, "Testing your own service", compiled and run: the page shows this class whole. */
@EnsembleTest(nodes = 3)
class CounterServiceExampleTest {

    /** The service under test: adds one to a counter node while it holds a Baton lock. */
    static final class CounterService {
        private final BatonClient client;
        private final String counter;
        private final InterProcessMutex mutex;
        private final String name;
        private final History history; // what the service believed and when, for the test to judge

        CounterService(BatonClient client, String counter, String lockPath, String name, History history) {
            this.client = client;
            this.counter = counter;
            this.mutex = new InterProcessMutex(client, lockPath);
            this.name = name;
            this.history = history;
        }

        /** Adds one under the lock; {@code midHold} runs while the lock is held (a test's hook). */
        long increment(Runnable midHold) throws InterruptedException {
            try (LockLease lease = mutex.acquireLease(Duration.ofSeconds(10))) {
                if (lease == null) {
                    throw new IllegalStateException("the counter stayed busy for 10 s");
                }
                lease.onLost(() -> history.lost(name, counter));
                history.acquired(name, counter, lease.fencingToken()); // after the acquisition returned
                long next = Long.parseLong(new String(client.getData().forPath(counter), UTF_8)) + 1;
                midHold.run();
                client.setData().forPath(counter, Long.toString(next).getBytes(UTF_8));
                history.released(name, counter); // before the release
                return next;
            } // closing releases, and throws LockOwnershipLostException if the hold was lost meanwhile
        }
    }

    @ConnectString String connect;

    @Test
    void noticesWhenItsSessionExpiresMidHold(BatonClient client) throws Exception {
        client.create().creatingParentsIfNeeded().forPath("/expiry/counter", "0".getBytes(UTF_8));
        History history = new History();
        CounterService service = new CounterService(client, "/expiry/counter", "/expiry/lock", "a", history);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch expired = new CountDownLatch(1);
        CompletableFuture<Long> increment = CompletableFuture.supplyAsync(() -> {
            try {
                return service.increment(() -> {
                    holding.countDown();
                    awaitQuietly(expired);
                });
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        assertThat(holding.await(10, TimeUnit.SECONDS)).as("the service took the lock").isTrue();
        SessionKiller.expire(client, connect, Duration.ofSeconds(10)); // the servers end the session mid-hold
        await().atMost(Duration.ofSeconds(10)).until(() -> history.count(Event.Op.LOST) == 1); // heard while holding
        expired.countDown();

        assertThatThrownBy(increment::join).hasCauseInstanceOf(LockOwnershipLostException.class);
    }

    @Test
    void neverTwoHoldersAtOnce(BatonClient a, BatonClient b, BatonClient c) throws Exception {
        Verdict verdict = hammer("/shared", List.of(a, b, c), name -> "/shared/lock", () -> { });
        verdict.assertOk();
        assertThat(new String(a.getData().forPath("/shared/counter"), UTF_8)).isEqualTo("30");
    }

    @Test
    void theCheckerCatchesAServiceThatLocksTheWrongPath(BatonClient a, BatonClient b) throws Exception {
        CyclicBarrier together = new CyclicBarrier(2); // both inside at once, which a working lock forbids
        Verdict verdict = hammer("/broken", List.of(a, b), name -> "/broken/lock-" + name, () -> awaitQuietly(together));
        assertThat(verdict.isOk()).isFalse();
        assertThat(verdict.violations()).anyMatch(v -> v.contains("acquired while"));
    }
    /** Ten increments by each client at once, judged by MutualExclusion. */
    private static Verdict hammer(String base, List<BatonClient> clients, UnaryOperator<String> lockOf,
                                  Runnable midHold) throws InterruptedException {
        clients.get(0).create().creatingParentsIfNeeded().forPath(base + "/counter", "0".getBytes(UTF_8));
        History history = new History();
        CompletableFuture<?>[] workers = new CompletableFuture<?>[clients.size()];
        for (int i = 0; i < clients.size(); i++) {
            String name = "worker-" + i;
            CounterService service = new CounterService(clients.get(i), base + "/counter", lockOf.apply(name), name, history);
            workers[i] = CompletableFuture.runAsync(() -> {
                for (int n = 0; n < 10; n++) {
                    try {
                        service.increment(midHold);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
        }
        CompletableFuture.allOf(workers).join();
        return MutualExclusion.check(history.events());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitQuietly(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the two services were not inside at once", e);
        }
    }
}

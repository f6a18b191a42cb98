package dev.baton.recipes.barrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.InvalidPathException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

@EnsembleTest
class DistributedBarrierTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    private static String path(TestInfo info) {
        return "/barriers/" + info.getTestMethod().orElseThrow().getName();
    }

    private static CompletableFuture<Long> waiter(DistributedBarrier barrier) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                barrier.waitOnBarrier();
                return System.nanoTime();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void waitersOnSeveralClientsPassOnlyAfterTheBarrierIsRemoved(BatonClient coordinator, TestInfo info) throws Exception {
        String path = path(info);
        new DistributedBarrier(coordinator, path).setBarrier();
        List<BatonClient> clients = new ArrayList<>();
        List<CompletableFuture<Long>> passed = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                BatonClient c = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
                clients.add(c);
                passed.add(waiter(new DistributedBarrier(c, path)));
            }
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> passed.stream().noneMatch(CompletableFuture::isDone));
            long removed = System.nanoTime();
            new DistributedBarrier(coordinator, path).removeBarrier();
            for (CompletableFuture<Long> p : passed) {
                assertThat(p.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("passed after removal").isGreaterThan(removed);
            }
        } finally {
            clients.forEach(BatonClient::close);
        }
    }

    @Test
    void aTimedWaitReturnsFalseWhileSetAndTrueOnceRemoved(BatonClient client, TestInfo info) throws Exception {
        DistributedBarrier barrier = new DistributedBarrier(client, path(info));
        assertThat(barrier.waitOnBarrier(Duration.ofMillis(10))).as("never set: open").isTrue();
        barrier.setBarrier();
        barrier.setBarrier();
        assertThat(barrier.waitOnBarrier(Duration.ofMillis(200))).isFalse();
        barrier.removeBarrier();
        barrier.removeBarrier();
        assertThat(barrier.waitOnBarrier(Duration.ofMillis(200))).isTrue();
        assertThat(barrier.waitOnBarrier(Duration.ofMillis(Long.MAX_VALUE))).as("a timeout too long to count means no limit")
            .isTrue();
        assertThatThrownBy(() -> barrier.waitOnBarrier(Duration.ofSeconds(-1))).as("not taken for 'no limit'")
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
        DistributedCountDownLatch latch = new DistributedCountDownLatch(client, path(info) + "-latch");
        assertThatThrownBy(() -> latch.await(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("PT-1S");
        DistributedDoubleBarrier twice = new DistributedDoubleBarrier(client, path(info) + "-double", 2);
        assertThatThrownBy(() -> twice.enter(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("PT-1S");
        assertThat(client.checkExists().forPath(path(info) + "-double")).as("a refused enter leaves nothing").isNull();
    }

    @Test
    void aWaiterKeepsWaitingAcrossADisconnectAndPassesAfterRemoval(BatonClient coordinator, TestInfo info) throws Exception {
        String path = path(info);
        new DistributedBarrier(coordinator, path).setBarrier();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(proxy.connectString(), Duration.ofSeconds(20))) {
            CompletableFuture<Long> passed = waiter(new DistributedBarrier(client, path));
            proxy.cut();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.SUSPENDED);
            assertThat(passed).isNotDone();
            long removed = System.nanoTime();
            new DistributedBarrier(coordinator, path).removeBarrier();
            proxy.heal();
            assertThat(passed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isGreaterThan(removed);
        }
    }

    @Test
    void aWaiterWhoseSessionExpiresKeepsWaitingInItsNewSession(BatonClient coordinator, TestInfo info) throws Exception {
        String path = path(info);
        new DistributedBarrier(coordinator, path).setBarrier();
        try (BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(5))) {
            CompletableFuture<Long> passed = waiter(new DistributedBarrier(client, path));
            long session = client.sessionId();
            SessionKiller.expire(client, ensemble.connectString(), WAIT);
            await().atMost(WAIT).until(() -> client.sessionId() != session && client.connectionState().isConnected());
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !passed.isDone());
            AtomicLong removed = new AtomicLong(System.nanoTime());
            new DistributedBarrier(coordinator, path).removeBarrier();
            assertThat(passed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isGreaterThan(removed.get());
        }
    }

    @Test
    void aBadPathIsRejectedAtConstruction(BatonClient client) {
        assertThatThrownBy(() -> new DistributedBarrier(client, "no-slash"))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("Path must start with /");
    }

    /** The gate is its node alone, as in Curator: either side may set it, and either side's waiters pass when it is removed. */
    @Test
    void curatorAndBatonShareOneGate(BatonClient client, TestInfo info) throws Exception {
        String path = path(info);
        try (CuratorFramework curator = CuratorFrameworkFactory.newClient(ensemble.connectString(), new RetryOneTime(100))) {
            curator.start();
            curator.blockUntilConnected();
            var curatorGate = new org.apache.curator.framework.recipes.barriers.DistributedBarrier(curator, path);
            DistributedBarrier batonGate = new DistributedBarrier(client, path);

            curatorGate.setBarrier();
            assertThat(batonGate.waitOnBarrier(Duration.ofMillis(200))).as("closed by Curator").isFalse();
            CompletableFuture<Long> batonWaiter = waiter(batonGate);
            curatorGate.removeBarrier();
            batonWaiter.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            batonGate.setBarrier();
            assertThat(curatorGate.waitOnBarrier(200, TimeUnit.MILLISECONDS)).as("closed by Baton").isFalse();
            CompletableFuture<Boolean> curatorWaiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return curatorGate.waitOnBarrier(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            batonGate.removeBarrier();
            assertThat(curatorWaiter.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("opened by Baton").isTrue();
        }
    }
}

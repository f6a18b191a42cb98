package dev.baton.recipes.barrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.retry.RetryOneTime;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

@EnsembleTest
class DistributedCountDownLatchTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    private static String path(TestInfo info) {
        return "/latches/" + info.getTestMethod().orElseThrow().getName();
    }

    private static CompletableFuture<Boolean> awaiting(DistributedCountDownLatch latch) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                latch.await();
                return true;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void waitersPassWhenCountDownsFromSeveralClientsReachZero(BatonClient a, BatonClient b, BatonClient c, TestInfo info)
        throws Exception {
        String path = path(info);
        DistributedCountDownLatch latch = new DistributedCountDownLatch(a, path);
        assertThat(latch.getCount()).as("never set").isZero();
        assertThat(latch.trySetCount(3)).isTrue();
        assertThat(latch.trySetCount(5)).as("in progress: not reset").isFalse();
        CompletableFuture<Boolean> waiter = awaiting(new DistributedCountDownLatch(c, path));

        new DistributedCountDownLatch(b, path).countDown();
        new DistributedCountDownLatch(c, path).countDown();
        assertThat(latch.getCount()).isEqualTo(1);
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !waiter.isDone());
        assertThat(latch.await(Duration.ofMillis(100))).isFalse();

        latch.countDown();
        assertThat(waiter.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(latch.getCount()).isZero();
        latch.countDown();
        assertThat(latch.getCount()).as("counting down at zero does nothing").isZero();
    }

    @Test
    void theLatchCanBeSetAgainOnceItReachedZero(BatonClient client, TestInfo info) throws Exception {
        DistributedCountDownLatch latch = new DistributedCountDownLatch(client, path(info));
        for (int generation = 0; generation < 3; generation++) {
            assertThat(latch.trySetCount(2)).as("generation %d", generation).isTrue();
            assertThat(latch.getCount()).isEqualTo(2);
            latch.countDown();
            latch.countDown();
            assertThat(latch.await(WAIT)).isTrue();
        }
        assertThat(latch.trySetCount(0)).isTrue();
        assertThat(latch.await(Duration.ofMillis(10))).as("a zero count is open at once").isTrue();
    }

    @Test
    void aCountDownWhoseReplyIsLostCountsExactlyOnce(BatonClient observer, TestInfo info) throws Exception {
        String path = path(info);
        new DistributedCountDownLatch(observer, path).trySetCount(3);
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(proxy.connectString(), Duration.ofSeconds(20))) {
            DistributedCountDownLatch latch = new DistributedCountDownLatch(client, path);
            DistributedCountDownLatch view = new DistributedCountDownLatch(observer, path);
            // every packet waits a second in the proxy, so the count-down's create reaches the
            // servers well before its reply could reach the client
            proxy.delay(Duration.ofSeconds(1));
            CompletableFuture<Void> counting = CompletableFuture.runAsync(() -> {
                try {
                    latch.countDown();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            // the count-down reached the servers...
            await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> view.getCount() == 2);
            // ...its reply, still in the proxy, is lost with the connection, and the client retries
            proxy.cut();
            proxy.delay(Duration.ZERO);
            proxy.heal();
            counting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(view.getCount()).as("applied once, not twice").isEqualTo(2);
        }
    }

    /**
     * The count-down that reaches zero writes its count node, then loses its connection before it
     * can mark the generation done, and gives up (its caller sees the failure and goes away). The
     * count is zero on the servers: the waiters must not stay blocked for want of the marker.
     */
    @Test
    void waitersPassWhenTheLastCountDownFailsAfterItsNodeWasWritten(BatonClient observer, BatonClient other,
                                                                     TestInfo info) throws Exception {
        String path = path(info);
        DistributedCountDownLatch view = new DistributedCountDownLatch(observer, path);
        view.trySetCount(1);
        CompletableFuture<Boolean> waiter = awaiting(new DistributedCountDownLatch(other, path));
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofMillis(500))
                 .retryPolicy(new RetryOneTime(Duration.ofMillis(10))))) {
            DistributedCountDownLatch last = new DistributedCountDownLatch(client, path);
            proxy.delay(Duration.ofSeconds(1)); // the create reaches the servers long before its reply comes back
            CompletableFuture<Void> counting = CompletableFuture.runAsync(() -> {
                try {
                    last.countDown();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> view.getCount() == 0);
            proxy.cut(); // the reply is lost and the connection stays down: the count-down gives up
            assertThatThrownBy(() -> counting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .as("the count-down fails after its node was written").isInstanceOf(ExecutionException.class);
        }
        assertThat(waiter.get(10, TimeUnit.SECONDS))
            .as("a waiter passes once the count is zero on the servers, marker or not").isTrue();
        assertThat(view.await(Duration.ofMillis(10))).as("so does a new one").isTrue();
        assertThat(view.trySetCount(1)).as("the generation is over: the latch can be set again").isTrue();
    }

    @Test
    void aWaiterReturnsEvenIfTheLatchWasSetAgainMeanwhile(BatonClient a, BatonClient b, TestInfo info) throws Exception {
        String path = path(info);
        DistributedCountDownLatch latch = new DistributedCountDownLatch(a, path);
        latch.trySetCount(1);
        CompletableFuture<Boolean> waiter = awaiting(new DistributedCountDownLatch(b, path));
        await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> !waiter.isDone());
        latch.countDown();
        latch.trySetCount(1);
        assertThat(waiter.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    }

    @Test
    void badInputIsRejected(BatonClient client, TestInfo info) throws Exception {
        DistributedCountDownLatch latch = new DistributedCountDownLatch(client, path(info));
        assertThatThrownBy(() -> latch.trySetCount(-1))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("count must be 0 or more, was -1");
        client.create().creatingParentsIfNeeded().forPath(path(info) + "-garbage", "not a latch".getBytes());
        assertThatThrownBy(() -> new DistributedCountDownLatch(client, path(info) + "-garbage").getCount())
            .isInstanceOf(BarrierException.class).hasMessageContaining("not '<generation> <count>'");
    }
}

package dev.baton.recipes.barrier;

import static dev.baton.test.CloseUnderWait.endsWithClientClosed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.OneShotWatches;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A barrier wait whose client is closed under it ends at once with {@code ClientClosedException}:
 * the client will never connect again, so waiting on (for the gate, the other members, the count)
 * would last until the wait's timeout, or for ever without one. Each wait here has no timeout.
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    private static String path(TestInfo info) {
        return "/closed-under-wait/" + info.getTestMethod().orElseThrow().getName();
    }

    private BatonClient newClient() {
        return TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
    }

    @Test
    void waitOnBarrierEnds(BatonClient coordinator, TestInfo info) throws Exception {
        String path = path(info);
        new DistributedBarrier(coordinator, path).setBarrier();
        BatonClient client = newClient();
        DistributedBarrier barrier = new DistributedBarrier(client, path);
        // the gate's node is there: the waiter's exists watch is a data watch
        endsWithClientClosed(client, () -> OneShotWatches.DATA.on(client).contains(path), barrier::waitOnBarrier);
    }

    @Test
    void doubleBarrierEnterEnds(TestInfo info) throws Exception {
        String path = path(info);
        BatonClient client = newClient();
        DistributedDoubleBarrier alone = new DistributedDoubleBarrier(client, path, 2);
        endsWithClientClosed(client, () -> OneShotWatches.EXISTS.on(client).contains(path + "/ready"), alone::enter);
    }

    @Test
    void doubleBarrierLeaveEnds(TestInfo info) throws Exception {
        String path = path(info);
        try (BatonClient stays = newClient()) {
            BatonClient client = newClient();
            DistributedDoubleBarrier leaving = new DistributedDoubleBarrier(client, path, 2);
            DistributedDoubleBarrier staying = new DistributedDoubleBarrier(stays, path, 2);
            CompletableFuture<Void> in = CompletableFuture.runAsync(() -> {
                try {
                    staying.enter();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            leaving.enter();
            in.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            // the other member never leaves: the leaver waits for its node
            String other = path + "/" + staying.memberName();
            endsWithClientClosed(client, () -> OneShotWatches.DATA.on(client).contains(other), leaving::leave);
        }
    }

    @Test
    void countDownLatchAwaitEnds(BatonClient coordinator, TestInfo info) throws Exception {
        String path = path(info);
        assertThat(new DistributedCountDownLatch(coordinator, path).trySetCount(1)).isTrue();
        BatonClient client = newClient();
        DistributedCountDownLatch latch = new DistributedCountDownLatch(client, path);
        // the look watches the generation's count nodes last
        endsWithClientClosed(client, () -> !OneShotWatches.CHILD.on(client).isEmpty(), latch::await);
    }
}

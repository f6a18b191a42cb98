package dev.baton.recipes.barrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link DistributedBarrier#waitOnBarrierAsync}: the gate's wait for callers that park no thread. */
@EnsembleTest
class DistributedBarrierAsyncTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void anAsyncWaitCompletesOnlyOnceTheGateIsOpened(BatonClient coordinator, BatonClient worker) throws Exception {
        new DistributedBarrier(coordinator, "/async-gate/open").setBarrier();
        CompletableFuture<Boolean> passed = new DistributedBarrier(worker, "/async-gate/open").waitOnBarrierAsync();
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !passed.isDone());

        new DistributedBarrier(coordinator, "/async-gate/open").removeBarrier();

        assertThat(passed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(new DistributedBarrier(worker, "/async-gate/open").waitOnBarrierAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .as("an open gate passes at once").isTrue();
    }

    @Test
    void anAsyncWaitWhoseSessionExpiresKeepsWaitingInItsNewSession(BatonClient coordinator) throws Exception {
        new DistributedBarrier(coordinator, "/async-gate/expiry").setBarrier();
        try (BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(5))) {
            CompletableFuture<Boolean> passed = new DistributedBarrier(client, "/async-gate/expiry").waitOnBarrierAsync();
            long session = client.sessionId();
            SessionKiller.expire(client, ensemble.connectString(), WAIT);
            await().atMost(WAIT).until(() -> client.sessionId() != session && client.connectionState().isConnected());
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !passed.isDone());

            new DistributedBarrier(coordinator, "/async-gate/expiry").removeBarrier();

            assertThat(passed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the new session's look sees the gate open").isTrue();
        }
    }

    @Test
    void anAsyncWaitWithATimeoutCompletesFalseWhileTheGateStaysClosed(BatonClient coordinator, BatonClient worker)
        throws Exception {
        new DistributedBarrier(coordinator, "/async-gate/closed").setBarrier();
        DistributedBarrier barrier = new DistributedBarrier(worker, "/async-gate/closed");

        assertThat(barrier.waitOnBarrierAsync(Duration.ofMillis(300)).get(WAIT.toSeconds(), TimeUnit.SECONDS)).isFalse();
        assertThat(barrier.waitOnBarrierAsync(Duration.ZERO).get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .as("a zero timeout looks once").isFalse();
        assertThatThrownBy(() -> barrier.waitOnBarrierAsync(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void closingTheClientFailsAPendingAsyncWaitWithClientClosedException(BatonClient coordinator, BatonClient closing)
        throws Exception {
        new DistributedBarrier(coordinator, "/async-gate/close").setBarrier();
        DistributedBarrier barrier = new DistributedBarrier(closing, "/async-gate/close");
        CompletableFuture<Boolean> waiting = barrier.waitOnBarrierAsync();

        closing.close();

        assertThatThrownBy(() -> waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ClientClosedException.class);
        assertThatThrownBy(() -> barrier.waitOnBarrierAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .as("and a wait begun on the closed client, as the blocking form").hasCauseInstanceOf(ClientClosedException.class);
    }

    @Test
    void aCancelledAsyncWaitStaysCancelledWhenTheGateOpens(BatonClient coordinator, BatonClient worker) throws Exception {
        new DistributedBarrier(coordinator, "/async-gate/cancel").setBarrier();
        CompletableFuture<Boolean> waiting = new DistributedBarrier(worker, "/async-gate/cancel").waitOnBarrierAsync();

        assertThat(waiting.cancel(true)).isTrue();
        new DistributedBarrier(coordinator, "/async-gate/cancel").removeBarrier();

        assertThat(new DistributedBarrier(worker, "/async-gate/cancel").waitOnBarrierAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .as("the next wait passes").isTrue();
        assertThat(waiting).isCancelled();
        assertThat(coordinator.checkExists().forPath("/async-gate/cancel")).as("no node left behind").isNull();
    }
}

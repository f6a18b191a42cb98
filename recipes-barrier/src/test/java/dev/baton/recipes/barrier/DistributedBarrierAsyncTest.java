package dev.baton.recipes.barrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.ClientClosedException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientLink;
import dev.baton.test.EnsembleTest;
import dev.baton.test.OneShotWatches;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.lang.ref.WeakReference;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
    @Test
    void aZeroTimeoutCompletesFalseWithoutAConnectionAsTheBlockingFormReturns() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort(); // closed again: nothing listens there
        }
        try (BatonClient cutOff = BatonClient.builder().connectString("127.0.0.1:" + port)
            .connectionTimeout(Duration.ofMillis(500)).build()) {
            cutOff.start();
            DistributedBarrier barrier = new DistributedBarrier(cutOff, "/async-gate/unreachable");
            assertThat(barrier.waitOnBarrier(Duration.ZERO)).as("the blocking form, once its look failed").isFalse();

            assertThat(barrier.waitOnBarrierAsync(Duration.ZERO).get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .as("the async form, once its look failed").isFalse();
        }
    }
    @Test
    void reconnectionsDoNotMultiplyTheLooks(BatonClient coordinator) throws Exception {
        new DistributedBarrier(coordinator, "/async-gate/reconnect").setBarrier();
        AtomicInteger looks = new AtomicInteger();
        try (ClientLink link = ClientLink.to(ensemble);
             BatonClient client = TestClients.started(BatonClient.builder().connectString(link.connectString())
                 .sessionTimeout(Duration.ofSeconds(20)))) {
            client.addObserver(new BatonObserver() {
                @Override
                public void requestCompleted(String operation, long nanos, boolean succeeded) {
                    if (operation.equals("checkExists")) {
                        looks.incrementAndGet();
                    }
                }
            });
            long session = client.sessionId();
            CompletableFuture<Boolean> passed = new DistributedBarrier(client, "/async-gate/reconnect").waitOnBarrierAsync();
            await("the first look").atMost(WAIT).until(() -> looks.get() >= 1);
            int reconnections = 5;
            for (int i = 0; i < reconnections; i++) {
                link.cut();
                await().atMost(WAIT).until(() -> !client.connectionState().isConnected());
                link.heal();
                await().atMost(WAIT).until(() -> client.connectionState().isConnected());
                // settled: no new look for 500 ms (not "none since connected": the reconnection's own look may
                // answer after the state turned connected)
                AtomicInteger lastCount = new AtomicInteger(-1);
                await("the looks the reconnection started").during(Duration.ofMillis(500)).atMost(WAIT)
                    .until(() -> lastCount.getAndSet(looks.get()) == lastCount.get());
            }
            assertThat(client.sessionId()).as("one session throughout").isEqualTo(session);
            assertThat(passed).isNotDone();

            assertThat(looks.get()).as("one look at the start and about one per reconnection")
                .isLessThanOrEqualTo(1 + 2 * reconnections);
            new DistributedBarrier(coordinator, "/async-gate/reconnect").removeBarrier();
            assertThat(passed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aTimedWaitThatEndedIsNotKeptUntilItsDeadline(BatonClient coordinator, BatonClient worker) throws Exception {
        String path = "/async-gate/ended";
        DistributedBarrier gate = new DistributedBarrier(coordinator, path);
        gate.setBarrier();
        CompletableFuture<Boolean> passed = new DistributedBarrier(worker, path).waitOnBarrierAsync(Duration.ofHours(1));
        gate.removeBarrier();
        assertThat(passed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        // the look that found the gate open watches for its node's creation: close the gate again to take that watch
        await("the last look's watch").atMost(WAIT).until(() -> OneShotWatches.EXISTS.on(worker).contains(path));
        gate.setBarrier();
        await("the watch fired").atMost(WAIT).until(() -> !OneShotWatches.on(worker, OneShotWatches.values()).contains(path));

        WeakReference<CompletableFuture<Boolean>> ended = new WeakReference<>(passed);
        passed = null;
        await("nothing keeps the ended wait (its deadline timer was cancelled)").atMost(Duration.ofSeconds(10))
            .until(() -> {
                System.gc();
                return ended.get() == null;
            });
    }

    @Test
    void aCloseWhileTheWaitStartsFailsItAsTheWaitsOwnClientClosedException(BatonClient coordinator) throws Exception {
        String path = "/async-gate/closed-at-start";
        new DistributedBarrier(coordinator, path).setBarrier();
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        // the client closes just as the wait adds its listener: after the wait saw it open
        BatonClient closesAsTheWaitListens = (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(),
            new Class<?>[] {BatonClient.class}, (proxy, method, args) -> {
                if (method.getName().equals("addConnectionStateListener")) {
                    client.close();
                }
                try {
                    return method.invoke(client, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });

        CompletableFuture<Boolean> waiting = new DistributedBarrier(closesAsTheWaitListens, path).waitOnBarrierAsync();

        assertThatThrownBy(() -> waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
            .cause().isInstanceOf(ClientClosedException.class).hasMessageContaining("waitOnBarrier");
    }
}

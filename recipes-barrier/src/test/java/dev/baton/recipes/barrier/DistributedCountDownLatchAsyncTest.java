package dev.baton.recipes.barrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.OneShotWatches;
import dev.baton.test.TestClients;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link DistributedCountDownLatch#awaitAsync}: the wait for zero with no thread parked, held to {@code await}'s contract. */
@EnsembleTest
class DistributedCountDownLatchAsyncTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void anAsyncAwaitCompletesOnlyOnceTheCountReachesZero(BatonClient coordinator, BatonClient waiter) throws Exception {
        String path = "/countdown-async/zero";
        DistributedCountDownLatch counting = new DistributedCountDownLatch(coordinator, path);
        assertThat(new DistributedCountDownLatch(waiter, "/countdown-async/never-set").awaitAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .as("a latch never set: at once").isTrue();
        assertThat(counting.trySetCount(2)).isTrue();
        CompletableFuture<Boolean> zero = new DistributedCountDownLatch(waiter, path).awaitAsync();
        CompletableFuture<String> completedOn = zero.thenApply(reached -> Thread.currentThread().getName());

        counting.countDown();
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !zero.isDone());
        counting.countDown();

        // the dependent first: a thread that waits on a completed future may run its pending dependents itself
        assertThat(completedOn.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the client's async pool").contains("-async-");
        assertThat(zero.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(new DistributedCountDownLatch(waiter, path).awaitAsync(Duration.ZERO).get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .as("at zero: at once").isTrue();
    }

    @Test
    void aTimedAsyncAwaitCompletesFalseAboveZeroAsTheBlockingFormReturns(BatonClient coordinator, BatonClient waiter)
        throws Exception {
        String path = "/countdown-async/timed";
        assertThat(new DistributedCountDownLatch(coordinator, path).trySetCount(1)).isTrue();
        DistributedCountDownLatch latch = new DistributedCountDownLatch(waiter, path);

        assertThat(latch.await(Duration.ofMillis(300))).as("the blocking form").isFalse();
        assertThat(latch.awaitAsync(Duration.ofMillis(300)).get(WAIT.toSeconds(), TimeUnit.SECONDS)).isFalse();
        assertThat(latch.awaitAsync(Duration.ZERO).get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("a zero timeout looks once").isFalse();
        assertThatThrownBy(() -> latch.awaitAsync(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void closingTheClientFailsAPendingAsyncAwaitWithClientClosedException(BatonClient coordinator) throws Exception {
        String path = "/countdown-async/closed";
        assertThat(new DistributedCountDownLatch(coordinator, path).trySetCount(1)).isTrue();
        BatonClient closing = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        DistributedCountDownLatch latch = new DistributedCountDownLatch(closing, path);
        CompletableFuture<Boolean> pending = latch.awaitAsync();
        // the look watches the generation's count nodes last
        await("the wait's look").atMost(WAIT).until(() -> !OneShotWatches.CHILD.on(closing).isEmpty());

        closing.close();

        assertThatThrownBy(() -> pending.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
            .cause().isInstanceOf(ClientClosedException.class).hasMessageContaining(path);
        assertThatThrownBy(() -> latch.awaitAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .as("begun on the closed client, as the blocking form").hasCauseInstanceOf(ClientClosedException.class);
    }

    @Test
    void aCancelledAsyncAwaitTakesItsListenerBackAndStaysCancelled(BatonClient coordinator, BatonClient waiter) throws Exception {
        String path = "/countdown-async/cancel";
        DistributedCountDownLatch counting = new DistributedCountDownLatch(coordinator, path);
        assertThat(counting.trySetCount(1)).isTrue();
        Set<ConnectionStateListener> listening = ConcurrentHashMap.newKeySet();
        BatonClient recording = (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(),
            new Class<?>[] {BatonClient.class}, (proxy, method, args) -> {
                if (method.getName().equals("addConnectionStateListener")) {
                    listening.add((ConnectionStateListener) args[0]);
                } else if (method.getName().equals("removeConnectionStateListener")) {
                    listening.remove((ConnectionStateListener) args[0]);
                }
                try {
                    return method.invoke(waiter, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
        CompletableFuture<Boolean> cancelled = new DistributedCountDownLatch(recording, path).awaitAsync(Duration.ofHours(1));
        await("the wait's look").atMost(WAIT).until(() -> !OneShotWatches.CHILD.on(waiter).isEmpty());
        assertThat(listening).as("the wait listens to its client").hasSize(1);

        assertThat(cancelled.cancel(true)).isTrue();
        assertThat(listening).as("no listener left on the client").isEmpty();

        counting.countDown();
        assertThat(new DistributedCountDownLatch(waiter, path).awaitAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .as("the next wait passes").isTrue();
        assertThat(cancelled).isCancelled();
    }
}

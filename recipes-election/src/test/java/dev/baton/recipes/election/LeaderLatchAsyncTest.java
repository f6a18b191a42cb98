package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link LeaderLatch#awaitAsync}: the wait for leadership with no thread parked, held to {@code await}'s contract. */
@EnsembleTest
class LeaderLatchAsyncTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void anAsyncAwaitCompletesOnTheClientsPoolOnceTheLatchLeads(BatonClient a, BatonClient b) throws Exception {
        String path = "/latch-async/leads";
        try (LeaderLatch first = new LeaderLatch(a, path, "a"); LeaderLatch second = new LeaderLatch(b, path, "b")) {
            first.start();
            assertThat(first.awaitAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("a latch that leads: at once").isTrue();
            second.start();
            CompletableFuture<Boolean> leads = second.awaitAsync();
            CompletableFuture<String> completedOn = leads.thenApply(led -> Thread.currentThread().getName());
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !leads.isDone());

            first.close();

            // the dependent first: a thread that waits on a completed future may run its pending dependents itself
            assertThat(completedOn.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the client's async pool").contains("-async-");
            assertThat(leads.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(second.hasLeadership()).isTrue();
        }
    }

    @Test
    void aTimedAsyncAwaitCompletesFalseWithoutLeadershipAsTheBlockingFormReturns(BatonClient a, BatonClient b) throws Exception {
        String path = "/latch-async/timed";
        try (LeaderLatch first = new LeaderLatch(a, path, "a"); LeaderLatch second = new LeaderLatch(b, path, "b")) {
            first.start();
            first.await();
            second.start();

            assertThat(second.awaitAsync(Duration.ofMillis(300)).get(WAIT.toSeconds(), TimeUnit.SECONDS)).isFalse();
            assertThat(second.awaitAsync(Duration.ZERO).get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("a zero timeout looks").isFalse();
            assertThat(first.awaitAsync(Duration.ZERO).get(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> second.awaitAsync(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
            LeaderLatch unstarted = new LeaderLatch(a, path, "c");
            assertThatThrownBy(unstarted::awaitAsync).isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
        }
    }

    @Test
    void closingTheLatchOrItsClientFailsAPendingAsyncAwaitAsAwaitThrows(BatonClient a, BatonClient b) throws Exception {
        String path = "/latch-async/closed";
        try (LeaderLatch first = new LeaderLatch(a, path, "a")) {
            first.start();
            first.await();
            LeaderLatch closedItself = new LeaderLatch(b, path, "b");
            closedItself.start();
            CompletableFuture<Boolean> pending = closedItself.awaitAsync();
            closedItself.close();
            assertThatThrownBy(() -> pending.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ElectionClosedException.class).hasMessage("latch on " + path + " is closed");
            assertThatThrownBy(() -> closedItself.awaitAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .as("begun on a closed latch").hasCauseInstanceOf(ElectionClosedException.class);
            assertThatThrownBy(closedItself::await).as("as the blocking form").isInstanceOf(ElectionClosedException.class);

            BatonClient closing = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
            LeaderLatch closedWithItsClient = new LeaderLatch(closing, path, "c");
            closedWithItsClient.start();
            CompletableFuture<Boolean> timed = closedWithItsClient.awaitAsync(Duration.ofHours(1));
            closing.close();
            assertThatThrownBy(() -> timed.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .cause().isInstanceOf(ElectionClosedException.class).hasMessage("latch on " + path + " is closed");
        }
    }

    @Test
    void aCancelledAsyncAwaitLeavesNothingBehind(BatonClient a, BatonClient b) throws Exception {
        String path = "/latch-async/cancel";
        try (LeaderLatch first = new LeaderLatch(a, path, "a"); LeaderLatch second = new LeaderLatch(b, path, "b")) {
            first.start();
            first.await();
            second.start();
            await().atMost(WAIT).until(() -> LineOrder.of(a, path).size() == 2);
            CompletableFuture<Boolean> timed = second.awaitAsync(Duration.ofHours(1));
            CompletableFuture<Boolean> untimed = second.awaitAsync();

            assertThat(timed.cancel(true)).isTrue();
            assertThat(untimed.cancel(true)).isTrue();

            // nothing holds the cancelled waits: no listener on the latch or the client, no deadline timer
            WeakReference<CompletableFuture<Boolean>> cancelledTimed = new WeakReference<>(timed);
            WeakReference<CompletableFuture<Boolean>> cancelledUntimed = new WeakReference<>(untimed);
            timed = null;
            untimed = null;
            await("the cancelled waits are collected").atMost(Duration.ofSeconds(10)).until(() -> {
                System.gc();
                return cancelledTimed.get() == null && cancelledUntimed.get() == null;
            });
            assertThat(LineOrder.of(a, path)).as("no node of the waits': the two latches' own").hasSize(2);
            first.close();
            assertThat(second.await(WAIT)).as("the latch itself still leads in its turn").isTrue();
        }
    }
}

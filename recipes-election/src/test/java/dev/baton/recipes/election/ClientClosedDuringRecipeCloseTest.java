package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import dev.baton.test.history.LeadershipHistory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A JVM runs its shutdown hooks at the same time: a hook of the service's own closes the latch or
 * selector while the framework's hook (Spring's context close) closes the client. The client's close
 * must then wait for the recipe's close already under way, as it waits for one it starts itself, and
 * not end the session while the old leader still steps down.
 *
 * <p>As in {@link ClientClosedFirstTest}, the old leader's step-down waits (at most {@link
 * #SLOW_STEP_DOWN}) for a successor, which must not come while it runs; a machine too slow to elect
 * within the wait lets this test pass, never fail, wrongly.
 */
@EnsembleTest
class ClientClosedDuringRecipeCloseTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration SLOW_STEP_DOWN = Duration.ofSeconds(2);

    @Test
    void closingTheClientWhileTheLatchClosesWaitsForItsNotLeader(@ConnectString String connect, BatonClient b) throws Exception {
        String path = "/latch/client-closed-during-close";
        LeadershipHistory history = new LeadershipHistory();
        CountDownLatch successorElected = new CountDownLatch(1);
        CountDownLatch steppingDown = new CountDownLatch(1);
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderLatch first = new LeaderLatch(a, path, "a");
        first.addListener(LeaderLatchListener.of(token -> history.granted("a", token), () -> {
            steppingDown.countDown();
            waitAtMost(successorElected, SLOW_STEP_DOWN);
            history.ended("a");
        }));
        first.start();
        assertThat(first.await(WAIT)).isTrue();
        try (LeaderLatch second = new LeaderLatch(b, path, "b")) {
            second.addListener(LeaderLatchListener.of(token -> {
                history.granted("b", token);
                successorElected.countDown();
            }, () -> history.ended("b")));
            second.start();
            await().atMost(WAIT).until(() -> second.getParticipants().size() == 2);

            CompletableFuture<Void> latchClosed = CompletableFuture.runAsync(first::close); // the service's hook
            assertThat(steppingDown.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            a.close(); // the framework's hook, meanwhile

            latchClosed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> history.grants() == 2);
            history.check().assertNeverTwoLeaders();
        }
    }

    @Test
    void closingTheClientWhileTheSelectorClosesWaitsForTakeLeadership(@ConnectString String connect, BatonClient b) throws Exception {
        String path = "/selector/client-closed-during-close";
        LeadershipHistory history = new LeadershipHistory();
        CountDownLatch successorElected = new CountDownLatch(1);
        CountDownLatch leads = new CountDownLatch(1);
        CountDownLatch steppingDown = new CountDownLatch(1);
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderSelector first = new LeaderSelector(a, path, "a", LeaderSelectorListener.withToken((client, token) -> {
            history.granted("a", token);
            leads.countDown();
            try {
                new CountDownLatch(1).await(); // lead until interrupted
            } catch (InterruptedException e) {
                steppingDown.countDown();
                waitAtMost(successorElected, SLOW_STEP_DOWN);
                history.ended("a");
            }
        }));
        first.start();
        assertThat(leads.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        try (LeaderSelector second = new LeaderSelector(b, path, "b", LeaderSelectorListener.withToken((client, token) -> {
            history.granted("b", token);
            successorElected.countDown();
            try {
                new CountDownLatch(1).await();
            } finally {
                history.ended("b");
            }
        }))) {
            second.start();
            await().atMost(WAIT).until(() -> second.getParticipants().size() == 2);

            CompletableFuture<Void> selectorClosed = CompletableFuture.runAsync(first::close); // the service's hook
            assertThat(steppingDown.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            a.close(); // the framework's hook, meanwhile

            selectorClosed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> history.grants() == 2);
            history.check().assertNeverTwoLeaders();
        }
    }

    /** Waits for {@code latch} up to {@code timeout}; keeps the interrupt status. */
    private static void waitAtMost(CountDownLatch latch, Duration timeout) {
        try {
            latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

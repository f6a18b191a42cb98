package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A JVM runs its shutdown hooks at the same time: a hook of the service's own closes the latch or
 * selector while the framework's hook (Spring's context close) closes the client. The client's close
 * must then wait for the recipe's close already under way, as it waits for one it starts itself, and
 * not end the session while the old leader still steps down ({@link SlowStepDown}).
 */
@EnsembleTest
class ClientClosedDuringRecipeCloseTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void closingTheClientWhileTheLatchClosesWaitsForItsNotLeader(@ConnectString String connect, BatonClient b) throws Exception {
        String path = "/latch/client-closed-during-close";
        SlowStepDown run = new SlowStepDown();
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderLatch first = new LeaderLatch(a, path, "a");
        first.addListener(run.latchA());
        first.start();
        assertThat(first.await(WAIT)).isTrue();
        try (LeaderLatch second = new LeaderLatch(b, path, "b")) {
            second.addListener(run.latchB());
            second.start();
            await().atMost(WAIT).until(() -> second.getParticipants().size() == 2);

            CompletableFuture<Void> latchClosed = CompletableFuture.runAsync(first::close); // the service's hook
            assertThat(run.aSteppingDown.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            a.close(); // the framework's hook, meanwhile

            latchClosed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> run.history.grants() == 2);
            run.history.check().assertNeverTwoLeaders();
        }
    }

    @Test
    void closingTheClientWhileTheSelectorClosesWaitsForTakeLeadership(@ConnectString String connect, BatonClient b) throws Exception {
        String path = "/selector/client-closed-during-close";
        SlowStepDown run = new SlowStepDown();
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderSelector first = new LeaderSelector(a, path, "a", run.selectorA());
        first.start();
        assertThat(run.aLeads.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        try (LeaderSelector second = new LeaderSelector(b, path, "b", run.selectorB())) {
            second.start();
            await().atMost(WAIT).until(() -> second.getParticipants().size() == 2);

            CompletableFuture<Void> selectorClosed = CompletableFuture.runAsync(first::close); // the service's hook
            assertThat(run.aSteppingDown.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            a.close(); // the framework's hook, meanwhile

            selectorClosed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> run.history.grants() == 2);
            run.history.check().assertNeverTwoLeaders();
        }
    }
}

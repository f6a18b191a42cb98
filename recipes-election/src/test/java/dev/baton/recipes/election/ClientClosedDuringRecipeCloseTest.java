package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
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
        SlowStepDown run = new SlowStepDown();
        try (SlowStepDown.Contenders<LeaderLatch> latches = run.latches(connect, b, "/latch/client-closed-during-close")) {
            closeTheClientWhileTheRecipeCloses(run, latches.a(), latches.first()::close);
        }
    }

    @Test
    void closingTheClientWhileTheSelectorClosesWaitsForTakeLeadership(@ConnectString String connect, BatonClient b) throws Exception {
        SlowStepDown run = new SlowStepDown();
        try (SlowStepDown.Contenders<LeaderSelector> selectors = run.selectors(connect, b, "/selector/client-closed-during-close")) {
            closeTheClientWhileTheRecipeCloses(run, selectors.a(), selectors.first()::close);
        }
    }

    /** "a"'s recipe closes on another thread, and its client closes while "a" steps down. */
    private static void closeTheClientWhileTheRecipeCloses(SlowStepDown run, BatonClient a, Runnable closeRecipe) throws Exception {
        CompletableFuture<Void> recipeClosed = CompletableFuture.runAsync(closeRecipe); // the service's hook
        assertThat(run.aSteppingDown.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        a.close(); // the framework's hook, meanwhile

        recipeClosed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> run.history.grants() == 2);
        run.history.check().assertNeverTwoLeaders();
    }
}

package dev.baton.recipes.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The loop that keeps a PersistentNode's node in place, without a server: steps are futures the
 * test completes by hand, on a direct executor, so every interleaving is the one written here.
 */
class SerialLoopTest {
    /** A step whose runs the test finishes one by one. */
    private final List<CompletableFuture<Void>> runs = new ArrayList<>();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private int running;
    private int mostAtOnce;

    private final SerialLoop loop = new SerialLoop(Runnable::run, () -> {
        CompletableFuture<Void> run = new CompletableFuture<>();
        runs.add(run);
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        return run.whenComplete((v, e) -> running--);
    }, failures::add);

    @Test
    void requestsWhileAStepRunsMakeExactlyOneMoreRunAfterIt() {
        loop.request();
        assertThat(runs).hasSize(1);
        loop.request();
        loop.request();
        loop.request();
        assertThat(runs).as("no second run while the first is in flight").hasSize(1);

        runs.get(0).complete(null);
        assertThat(runs).as("three requests in flight: one more run").hasSize(2);
        runs.get(1).complete(null);
        assertThat(runs).as("nothing asked since: the loop is idle").hasSize(2);
        assertThat(mostAtOnce).as("runs never overlap").isEqualTo(1);

        loop.request();
        assertThat(runs).as("an idle loop runs at once").hasSize(3);
    }

    @Test
    void aFailedStepIsReportedAndTheLoopGoesOn() {
        loop.request();
        loop.request();
        IllegalStateException boom = new IllegalStateException("boom");
        runs.get(0).completeExceptionally(boom);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).hasRootCause(boom);
        assertThat(runs).as("the request made during the failed run still runs").hasSize(2);
    }

    @Test
    void aStepThatThrowsInsteadOfFailingItsFutureIsReportedToo() {
        List<Throwable> told = new ArrayList<>();
        SerialLoop throwing = new SerialLoop(Runnable::run, () -> {
            throw new IllegalStateException("thrown");
        }, told::add);
        throwing.request();
        throwing.request();
        assertThat(told).hasSize(2).allSatisfy(e -> assertThat(e).hasMessage("thrown"));
    }

    @Test
    void stopWaitsForTheStepInFlightAndRunsNoMore() {
        loop.request();
        loop.request();
        CompletableFuture<Void> quiet = loop.stop();
        assertThat(quiet).as("a step is still in flight").isNotDone();

        runs.get(0).complete(null);
        assertThat(quiet).isDone();
        assertThat(runs).as("the request made before stop() is dropped").hasSize(1);
        loop.request();
        assertThat(runs).as("no run after stop()").hasSize(1);
        assertThat(loop.stop()).isDone();
    }

    @Test
    void stopOfAnIdleLoopIsDoneAtOnce() {
        assertThat(loop.stop()).isDone();
        loop.request();
        assertThat(runs).isEmpty();
    }
}

package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A caller's continuation runs on the client's async pool (its futures complete there). One that
 * blocks in {@code LeaderLatch.await(timeout)} must not stall that pool, which also runs the latch's
 * own acquisition.
 */
@EnsembleTest
class AsyncContinuationTest {
    @Test
    void latchesAwaitedInContinuationsOnTheClientsPoolStillLead(BatonClient client) throws Exception {
        // one more waiter than the pool has threads
        int waiters = ((ForkJoinPool) client.asyncExecutor()).getParallelism() + 1;
        List<CompletableFuture<Boolean>> led = new ArrayList<>();
        List<LeaderLatch> latches = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            LeaderLatch latch = new LeaderLatch(client, "/continuation/latch-" + i, "only-" + i);
            latches.add(latch);
            // where a thenApply on one of the client's futures runs
            led.add(CompletableFuture.supplyAsync(() -> {
                try {
                    latch.start();
                    return latch.await(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }, client.asyncExecutor()));
        }

        for (CompletableFuture<Boolean> lead : led) {
            assertThat(lead.get(30, TimeUnit.SECONDS))
                .as("a latch alone on its path, awaited from a continuation on the client's pool, leads").isTrue();
        }
        latches.forEach(LeaderLatch::close);
    }
}

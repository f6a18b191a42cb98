package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A caller's continuation runs on the client's async pool. Continuations parked in {@code take()}
 * must leave the pool to the client's other futures, and still get their items.
 */
@EnsembleTest
class AsyncContinuationTest {
    @Test
    void takesWaitingInContinuationsLeaveTheClientsOtherFuturesRunning(BatonClient client, BatonClient producer)
        throws Exception {
        int takers = ((ForkJoinPool) client.asyncExecutor()).getParallelism() + 1;
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, "/continuation/queue");
        List<CompletableFuture<byte[]>> taken = new ArrayList<>();
        for (int i = 0; i < takers; i++) {
            // where a thenApply on one of the client's futures runs
            taken.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return queue.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }, client.asyncExecutor()));
        }
        Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
            .until(() -> ((ForkJoinPool) client.asyncExecutor()).getQueuedSubmissionCount() == 0);

        CompletableFuture<String> other = client.create().creatingParentsIfNeeded().forPathAsync("/continuation/other");
        assertThat(other.get(10, TimeUnit.SECONDS))
            .as("the client's futures complete while takes wait in continuations").isEqualTo("/continuation/other");
        SimpleDistributedQueue feeding = new SimpleDistributedQueue(producer, "/continuation/queue");
        for (int i = 0; i < takers; i++) {
            feeding.offer(new byte[] {(byte) i});
        }
        for (CompletableFuture<byte[]> take : taken) {
            assertThat(take.get(20, TimeUnit.SECONDS)).hasSize(1);
        }
    }
}

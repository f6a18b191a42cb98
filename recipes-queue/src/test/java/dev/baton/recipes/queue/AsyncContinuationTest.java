package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A caller's continuation runs on the client's async pool. Continuations parked in {@code take()}
 * must leave the pool to the client's other futures, and still get their items; continuations
 * that make a queue's first puts, which wait for each other while one of them finds or makes the
 * shard to put into, must leave the pool to that one's replies.
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

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // stalled, the offers never return
    void firstOffersFromContinuationsOnAFreshShardedQueueAllComplete(@ConnectString String connectString, BatonClient reader)
        throws Exception {
        // a client of the test's own, so that a stalled pool cannot hold up the closing of the shared ones
        BatonClient client = TestClients.started(connectString, Duration.ofSeconds(30));
        try {
            // more than the pool has threads, counting spares it may keep from earlier managed waits
            int producers = ((ForkJoinPool) client.asyncExecutor()).getParallelism() * 4 + 1;
            String path = "/continuation/sharded";
            SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path);
            List<CompletableFuture<String>> offered = new ArrayList<>();
            for (int i = 0; i < producers; i++) {
                String item = "item-" + i;
                // where a thenApply on one of the client's futures runs
                offered.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        queue.offer(item.getBytes(StandardCharsets.UTF_8));
                        return item;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }, client.asyncExecutor()));
            }
            List<String> returned = new ArrayList<>();
            for (CompletableFuture<String> offer : offered) {
                returned.add(offer.get(20, TimeUnit.SECONDS)); // stalled before: TimeoutException
            }
            assertThat(reader.getChildren().forPath(path)).filteredOn(name -> name.startsWith(ItemNames.SHARD_PREFIX))
                .as("the first puts of one queue made one shard").hasSize(1);
            SimpleDistributedQueue reading = new SimpleDistributedQueue(reader, path);
            List<String> queued = new ArrayList<>();
            for (byte[] data = reading.poll(); data != null; data = reading.poll()) {
                queued.add(new String(data, StandardCharsets.UTF_8));
            }
            assertThat(queued).as("every offered item is queued, once").containsExactlyInAnyOrderElementsOf(returned);
        } finally {
            closeWithin(client, Duration.ofSeconds(10));
        }
    }

    /** Closes {@code client} on a thread of its own and waits at most {@code bound}: a stalled client is left behind. */
    private static void closeWithin(BatonClient client, Duration bound) throws InterruptedException {
        Thread closer = new Thread(client::close, "close-" + client);
        closer.setDaemon(true);
        closer.start();
        closer.join(bound.toMillis());
    }
}

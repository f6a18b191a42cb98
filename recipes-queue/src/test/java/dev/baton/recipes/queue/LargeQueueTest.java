package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * 100,000 items waiting at once: Curator's queues fail here (one listing exceeds ZooKeeper's
 * 1 MB reply limit); Baton's keep every listing to one shard of a few thousand names.
 */
@Tag("slow")
@EnsembleTest
class LargeQueueTest {
    private static final int ITEMS = 100_000;
    private static final int BATCH = 1_000;

    @Test
    void hundredThousandWaitingItemsArePutAndDrainedEachExactlyOnce(BatonClient client) throws Exception {
        String path = "/large/fifo";
        long start = System.nanoTime();
        try (DistributedQueue<String> producer = QueueBuilder.builder(client, null, Strings.UTF8, path).buildQueue()) {
            producer.start();
            for (int i = 0; i < ITEMS; i += BATCH) {
                List<String> items = new ArrayList<>(BATCH);
                for (int k = i; k < i + BATCH; k++) {
                    items.add(Integer.toString(k));
                }
                producer.putMulti(items);
            }
            assertThat(producer.count()).isEqualTo(ITEMS);
        }
        long putDone = System.nanoTime();
        List<String> top = client.getChildren().forPath(path);
        long shards = top.stream().filter(n -> ItemNames.shardSequence(n) >= 0).count();
        assertThat(shards).as("items spread over shards").isGreaterThanOrEqualTo(ITEMS / (QueueLayout.SHARD_ROLL_SEQUENCE + BATCH));
        for (String shard : top) {
            if (ItemNames.shardSequence(shard) >= 0) {
                assertThat(client.checkExists().forPath(path + "/" + shard).getNumChildren())
                    .as("no shard near the listing limit").isLessThanOrEqualTo(QueueLayout.SHARD_ROLL_SEQUENCE + BATCH);
            }
        }

        BitSet seen = new BitSet(ITEMS);
        AtomicInteger duplicates = new AtomicInteger();
        QueueConsumer<String> consumer = item -> {
            int n = Integer.parseInt(item);
            synchronized (seen) {
                if (seen.get(n)) {
                    duplicates.incrementAndGet();
                }
                seen.set(n);
            }
        };
        // four items in flight at a time: takes overlap (order among them is then not promised)
        try (DistributedQueue<String> queue = QueueBuilder.builder(client, consumer, Strings.UTF8, path).concurrency(4).buildQueue()) {
            queue.start();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200)).until(() -> {
                synchronized (seen) {
                    return seen.cardinality() == ITEMS;
                }
            });
            assertThat(duplicates.get()).isZero();
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.count() == 0);
        }
        long end = System.nanoTime();
        System.out.printf("100,000 items: put %.1f s, drained %.1f s%n", (putDone - start) / 1e9, (end - putDone) / 1e9);
    }
}

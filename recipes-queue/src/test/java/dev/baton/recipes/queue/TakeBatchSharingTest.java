package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Consumers with take batches on separate clients share a backlog: each takes a real share of it,
 * instead of all of them racing for the same batch and the winner staying one batch ahead.
 */
@EnsembleTest
class TakeBatchSharingTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int ITEMS = 800;
    private static final int BATCH = 10;

    @Test
    void consumersWithTakeBatchesEachTakeAShareOfABacklog(BatonClient producerClient, BatonClient a, BatonClient b,
                                                          BatonClient c, BatonClient d) throws Exception {
        String path = "/take-batch-sharing/backlog";
        List<BatonClient> consumerClients = List.of(a, b, c, d);
        Map<String, Integer> times = new ConcurrentHashMap<>();
        List<AtomicInteger> taken = new ArrayList<>();
        List<DistributedQueue<String>> consumers = new ArrayList<>();
        try (DistributedQueue<String> producer = QueueBuilder.builder(producerClient, null, Strings.UTF8, path).buildQueue()) {
            producer.start();
            for (int i = 0; i < ITEMS; i += 200) {
                int from = i;
                producer.putMulti(IntStream.range(from, from + 200).mapToObj(k -> "item-" + k).toList());
            }
            try {
                for (BatonClient client : consumerClients) {
                    AtomicInteger mine = new AtomicInteger();
                    taken.add(mine);
                    QueueConsumer<String> consumer = item -> {
                        mine.incrementAndGet();
                        times.merge(item, 1, Integer::sum);
                    };
                    consumers.add(QueueBuilder.builder(client, consumer, Strings.UTF8, path).takeBatch(BATCH).buildQueue());
                }
                for (DistributedQueue<String> consumer : consumers) {
                    consumer.start();
                }
                await().atMost(WAIT).until(() -> times.size() >= ITEMS && producer.count() == 0);
            } finally {
                consumers.forEach(DistributedQueue::close);
            }
        }
        assertThat(times).hasSize(ITEMS);
        assertThat(times.values()).as("no item delivered twice").allMatch(n -> n == 1);
        List<Integer> shares = taken.stream().map(AtomicInteger::get).toList();
        // A fair share is 200 each; a tenth of it leaves room for a slow start on a loaded machine,
        // and still fails when one consumer races ahead of the others through the whole backlog.
        assertThat(shares).as("items each of 4 consumers took from a backlog of %d, batches of %d", ITEMS, BATCH)
            .allMatch(n -> n >= ITEMS / 4 / 10);
    }
}

package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.CountingClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A priority consumer chooses its next item when a consumer slot is free, so an item put while
 * its only consumer works comes out next if it is the most urgent waiting.
 *
 * <p>The consumer is slow on purpose: each delivery waits for the test's go. While it waits, the
 * test puts, then makes sure the consumer's client has handled the resulting watch event (a sync
 * round trip and a pass through its event executor), so "put while the consumer works" is exact.
 */
@EnsembleTest
class UrgentItemTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void anUrgentItemPutWhileTheOnlyConsumerWorksComesOutNext(BatonClient producerClient, BatonClient consumerClient,
                                                               TestInfo info) throws Exception {
        String path = "/urgent/" + info.getTestMethod().orElseThrow().getName();
        SlowConsumer slow = new SlowConsumer();
        try (DistributedPriorityQueue<String> producer = QueueBuilder.builder(producerClient, null, Strings.UTF8, path)
                 .buildPriorityQueue();
             DistributedPriorityQueue<String> consumer = QueueBuilder.builder(consumerClient, slow, Strings.UTF8, path)
                 .buildPriorityQueue()) {
            producer.start();
            for (int i = 0; i < 5; i++) {
                producer.put("item-" + i, 10);
            }
            consumer.start();
            assertThat(slow.next()).isEqualTo("item-0");

            producer.put("urgent", 1);
            CountingClient.wrap(consumerClient).quiesce(WAIT);
            slow.go();

            List<String> rest = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                rest.add(slow.next());
                slow.go();
            }
            assertThat(rest).as("what came after item-0, the urgent item having been put while item-0 was consumed")
                .containsExactly("urgent", "item-1", "item-2", "item-3", "item-4");
        }
    }

    @Test
    void eachItemIsTheMostUrgentOfThoseWaitingWhenTheConsumerBecameFree(BatonClient producerClient, BatonClient consumerClient,
                                                                         TestInfo info) throws Exception {
        String path = "/urgent/" + info.getTestMethod().orElseThrow().getName();
        long seed = System.nanoTime();
        Random random = new Random(seed);
        SlowConsumer slow = new SlowConsumer();
        // waiting items: priority, then put order (FIFO within a priority)
        List<Item> waiting = new ArrayList<>();
        Comparator<Item> queueOrder = Comparator.comparingInt(Item::priority).thenComparingInt(Item::number);
        int put = 0;
        try (DistributedPriorityQueue<String> producer = QueueBuilder.builder(producerClient, null, Strings.UTF8, path)
                 .buildPriorityQueue();
             DistributedPriorityQueue<String> consumer = QueueBuilder.builder(consumerClient, slow, Strings.UTF8, path)
                 .buildPriorityQueue()) {
            producer.start();
            for (; put < 5; put++) {
                waiting.add(putRandom(producer, put, random));
            }
            consumer.start();
            for (int round = 0; round < 100; round++) {
                String consumed = slow.next();
                Item expected = waiting.stream().min(queueOrder).orElseThrow();
                assertThat(consumed).as("item %d consumed (seed %d); waiting then: %s", round, seed, waiting)
                    .isEqualTo(expected.name());
                waiting.remove(expected);
                if (put < 100) {
                    waiting.add(putRandom(producer, put++, random));
                    CountingClient.wrap(consumerClient).quiesce(WAIT);
                }
                slow.go();
            }
            assertThat(waiting).isEmpty();
        }
    }

    private static Item putRandom(DistributedPriorityQueue<String> producer, int number, Random random) throws InterruptedException {
        Item item = new Item(number, random.nextInt(20));
        producer.put(item.name(), item.priority());
        return item;
    }

    private record Item(int number, int priority) {
        String name() {
            return "item-" + number + "@" + priority;
        }
    }

    /** A consumer that reports each item and then waits for the test's go before it returns. */
    private static final class SlowConsumer implements QueueConsumer<String> {
        private final BlockingQueue<String> started = new LinkedBlockingQueue<>();
        private final Semaphore go = new Semaphore(0);

        @Override
        public void consumeMessage(String item) throws Exception {
            started.add(item);
            go.acquire();
        }

        String next() throws InterruptedException {
            String item = started.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(item).as("an item delivered within " + WAIT).isNotNull();
            return item;
        }

        void go() {
            go.release();
        }
    }
}

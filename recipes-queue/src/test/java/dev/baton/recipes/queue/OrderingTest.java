package dev.baton.recipes.queue;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.history.QueueHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FIFO per producer: several producers on their own clients, one consumer. */
@EnsembleTest
class OrderingTest {

    @Test
    void simpleQueueTakesEachProducersItemsInTheOrderOffered(BatonClient a, BatonClient b, BatonClient consumerClient) throws Exception {
        QueueHistory history = new QueueHistory();
        String path = "/ordering/simple";
        List<Thread> producers = new ArrayList<>();
        BatonClient[] clients = {a, b};
        for (int p = 0; p < 2; p++) {
            SimpleDistributedQueue queue = new SimpleDistributedQueue(clients[p], path);
            String name = "p" + p;
            producers.add(started(() -> {
                try {
                    for (int i = 0; i < 100; i++) {
                        queue.offer((name + "-" + i).getBytes(UTF_8));
                        history.put(name, name + "-" + i);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        SimpleDistributedQueue consumer = new SimpleDistributedQueue(consumerClient, path);
        for (int taken = 0; taken < 200; taken++) {
            byte[] item = consumer.poll(Duration.ofSeconds(20));
            history.completed("c", new String(item, UTF_8), 0);
        }
        for (Thread t : producers) {
            t.join();
        }
        history.checkFifoPerProducer().assertOk();
        history.checkAtMostOnce().assertOk();
    }

    @Test
    void distributedQueueKeepsEachProducersOrderAcrossShards(BatonClient a, BatonClient b, BatonClient consumerClient)
        throws Exception {
        QueueHistory history = new QueueHistory();
        String path = "/ordering/queue";
        List<Thread> producers = new ArrayList<>();
        BatonClient[] clients = {a, b};
        for (int p = 0; p < 2; p++) {
            DistributedQueue<String> queue = QueueBuilder.builder(clients[p], null, Strings.UTF8, path).buildQueue();
            queue.start();
            String name = "p" + p;
            producers.add(started(() -> {
                try {
                    // 3,000 items each, enough to roll over to a new shard on the way
                    for (int batch = 0; batch < 30; batch++) {
                        List<String> items = new ArrayList<>();
                        for (int i = 0; i < 100; i++) {
                            items.add(name + "-" + (batch * 100 + i));
                        }
                        queue.putMulti(items);
                        items.forEach(item -> history.put(name, item));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    queue.close();
                }
            }));
        }
        try (DistributedQueue<String> consumer = QueueBuilder.builder(consumerClient, item -> history.completed("c", item, 0),
            Strings.UTF8, path).buildQueue()) {
            consumer.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> history.completedItems() == 6_000);
        }
        for (Thread t : producers) {
            t.join();
        }
        history.checkFifoPerProducer().assertOk();
        history.checkAtMostOnce().assertOk();
    }

    private static Thread started(Runnable r) {
        Thread t = new Thread(r);
        t.start();
        return t;
    }
}

package dev.baton.chaos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.recipes.queue.DistributedQueue;
import dev.baton.recipes.queue.QueueBuilder;
import dev.baton.recipes.queue.QueueConsumer;
import dev.baton.recipes.queue.QueueSerializer;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.QueueHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A guaranteed-delivery queue under faults: every item put is consumed, and removed exactly once. */
@EnsembleTest(nodes = 3)
class QueueChaosTest {
    private static final QueueSerializer<String> TEXT = new QueueSerializer<>() {
        @Override
        public byte[] serialize(String item) {
            return item.getBytes(UTF_8);
        }

        @Override
        public String deserialize(byte[] bytes) {
            return new String(bytes, UTF_8);
        }
    };

    EmbeddedEnsemble ensemble;

    @Test
    void guaranteedDeliveryLosesAndDuplicatesNothingUnderFaults() throws Exception {
        QueueHistory history = new QueueHistory();
        String path = "/chaos/queue";
        List<DistributedQueue<String>> queues = new ArrayList<>();
        Semaphore room = new Semaphore(100);
        try (ChaosRun run = new ChaosRun("queue", ensemble, 5, Duration.ofSeconds(3),
            Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.LOSE_QUORUM, Fault.CUT_CLIENT, Fault.DELAY_CLIENT,
            Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION)) {
            for (BatonClient client : run.clients) {
                client.addConnectionStateListener(endedSessions(history));
            }
            // clients 0-2 consume, 3-4 produce
            for (int c = 0; c < 3; c++) {
                BatonClient client = run.client(c);
                String name = "consumer-" + c;
                QueueConsumer<String> consumer = item -> {
                    long session = client.sessionId();
                    history.started(name, item, session);
                    history.completed(name, item, session);
                    room.release();
                };
                DistributedQueue<String> queue = QueueBuilder.builder(client, consumer, TEXT, path)
                    .lockPath(path + "-locks").closeTimeout(Duration.ofSeconds(5)).buildQueue();
                queue.start();
                queues.add(queue);
            }
            List<DistributedQueue<String>> producers = new ArrayList<>();
            for (int p = 3; p < 5; p++) {
                DistributedQueue<String> queue = QueueBuilder.builder(run.client(p), null, TEXT, path).buildQueue();
                queue.start();
                producers.add(queue);
                queues.add(queue);
            }
            AtomicInteger[] next = {new AtomicInteger(), new AtomicInteger()};
            Workers workers = new Workers();
            workers.start("producer", 2, p -> {
                room.acquire();
                String item = "p" + p + "-" + next[p].getAndIncrement();
                try {
                    producers.get(p).put(item);
                    history.put("producer-" + p, item);
                    return true;
                } catch (BatonException e) {
                    history.putUncertain("producer-" + p, item);
                    room.release();
                    throw e;
                }
            });
            run.runFaults();
            workers.stop();
            // after the faults: everything put is consumed, then judge
            await().atMost(Duration.ofSeconds(120)).until(history::allPutItemsCompleted);
            run.verdict(history.completedItems(), Map.of(
                "exactly once", history.checkExactlyOnce().problems()));
        } finally {
            queues.forEach(DistributedQueue::close);
        }
    }

    private static ConnectionStateListener endedSessions(QueueHistory history) {
        return new ConnectionStateListener() {
            @Override
            public void stateChanged(BatonClient c, ConnectionState s) {
            }

            @Override
            public void stateChanged(BatonClient c, ConnectionStateChange change) {
                if (change.state() == ConnectionState.LOST) {
                    history.sessionEnded(change.sessionId());
                }
            }
        };
    }
}

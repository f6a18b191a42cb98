package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import dev.baton.test.history.QueueHistory;
import dev.baton.recipes.queue.QueueOutcomeUnknownException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Several producers and consumers on separate clients, while a consumer dies mid-item (its
 * session expired, or its process gone), a consumer's connection is cut, and the ZooKeeper leader
 * is stopped and restarted; judged by {@link QueueHistory}.
 */
@EnsembleTest(nodes = 3)
class QueueFaultTest {
    private static final int PRODUCERS = 2;
    private static final int PER_PRODUCER = 150;
    private static final int TOTAL = PRODUCERS * PER_PRODUCER;
    private static final Duration WAIT = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        open.clear();
    }

    @Test
    void guaranteedModeCompletesEveryItemExactlyOnceThroughExpiryCutsAndLeaderLoss() throws Exception {
        QueueHistory history = run("/faults/guaranteed", true, 1);
        history.checkExactlyOnce().assertOk();
    }

    @Test
    void plainModeNeverConsumesTwiceAndLosesOnlyWhatADeadConsumerHeld() throws Exception {
        QueueHistory history = run("/faults/plain", false, 1);
        history.checkAtMostOnce().assertOk();
    }

    @Test
    void plainModeWithTakeBatchesNeverConsumesTwiceThroughTheSameFaults() throws Exception {
        QueueHistory history = run("/faults/plain-batched", false, 8);
        history.checkAtMostOnce().assertOk();
    }

    @Test
    void simpleQueueThroughConnectionCutsNeitherDuplicatesNorLosesAnItem() throws Exception {
        QueueHistory history = new QueueHistory();
        ChaosProxy producerProxy = ChaosProxy.start(ensemble.connectString(2));
        ChaosProxy consumerProxy = ChaosProxy.start(ensemble.connectString(3));
        open.add(producerProxy);
        open.add(consumerProxy);
        BatonClient producerClient = client(producerProxy.connectString(), history);
        BatonClient consumerClient = client(consumerProxy.connectString(), history);
        SimpleDistributedQueue producer = new SimpleDistributedQueue(producerClient, "/faults/simple");
        SimpleDistributedQueue consumer = new SimpleDistributedQueue(consumerClient, "/faults/simple");
        int items = 200;
        Thread producing = new Thread(() -> {
            try {
                for (int i = 0; i < items; i++) {
                    String item = "s-" + i;
                    try {
                        producer.offer(item.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        history.put("p", item);
                    } catch (BatonException e) {
                        history.putUncertain("p", item);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        AtomicInteger handled = new AtomicInteger();
        Thread consuming = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    byte[] item = consumer.poll(Duration.ofMillis(200));
                    if (item != null) {
                        history.started("c", new String(item, java.nio.charset.StandardCharsets.UTF_8), 0);
                        history.completed("c", new String(item, java.nio.charset.StandardCharsets.UTF_8), 0);
                        handled.incrementAndGet();
                    }
                } catch (QueueOutcomeUnknownException e) {
                    // the caller holds the item and decides; this one sets it aside, as a dead letter would
                    history.deadLettered(new String(e.item(), java.nio.charset.StandardCharsets.UTF_8));
                    handled.incrementAndGet();
                } catch (BatonException e) {
                    // no connection for longer than the retry policy waits: try again
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        producing.start();
        consuming.start();
        for (int cut = 1; cut <= 4; cut++) {
            int progress = cut * 30;
            await().atMost(WAIT).until(() -> handled.get() >= progress);
            producerProxy.cut();
            consumerProxy.cut();
            await().atMost(WAIT).until(() -> !producerClient.connectionState().isConnected()
                && !consumerClient.connectionState().isConnected());
            producerProxy.heal();
            consumerProxy.heal();
        }
        producing.join(WAIT.toMillis());
        await().atMost(WAIT).until(() -> history.allPutItemsCompleted() || handled.get() >= items);
        await().atMost(WAIT).until(() -> consumer.peek() == null);
        consuming.interrupt();
        consuming.join(WAIT.toMillis());
        history.checkAtMostOnce().assertOk();
    }

    /** The three faults against three consumers; plain-mode consumers remove {@code takeBatch} items per transaction. */
    private QueueHistory run(String path, boolean guaranteed, int takeBatch) throws Exception {
        QueueHistory history = new QueueHistory();
        Semaphore room = new Semaphore(60); // producers stay a little ahead of consumers, so faults hit a busy queue
        ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
        open.add(proxy);
        BatonClient proxied = client(proxy.connectString(), history);
        BatonClient victimClient = client(ensemble.connectString(), history);
        BatonClient steady = client(ensemble.connectString(), history);

        CountDownLatch victimStarted = new CountDownLatch(1);
        CountDownLatch victimRelease = new CountDownLatch(1);
        AtomicLong victimSession = new AtomicLong();
        AtomicInteger victim = new AtomicInteger(-1);
        List<DistributedQueue<String>> consumers = new ArrayList<>();
        String[] names = {"proxied", "direct-1", "direct-2"};
        BatonClient[] clients = {proxied, victimClient, steady};
        for (int c = 0; c < 3; c++) {
            int index = c;
            String name = names[c];
            BatonClient client = clients[c];
            QueueConsumer<String> consumer = item -> {
                long session = client.sessionId();
                history.started(name, item, session);
                if (index == 0 && history.completedItems() >= 20 && victim.get() == -1) {
                    // the proxied consumer steps aside until a direct one has started an item: with take
                    // batches all three race for the same items in the same order, and one that wins a
                    // slot stays a slot ahead, so the proxied one alone took items 21 to 300 in a CI run
                    // (at 8469f58: "a consumer started an item after 20; completed: 300")
                    victimStarted.await(WAIT.toSeconds(), TimeUnit.SECONDS);
                }
                // the victim: whichever direct consumer starts an item once 20 are done (a fast one may
                // do them all). Never the proxied one: fault 2 cuts its connection, which needs it alive.
                if (index != 0 && history.completedItems() >= 20 && victim.compareAndSet(-1, index)) {
                    victimSession.set(session);
                    victimStarted.countDown();
                    victimRelease.await();
                    if (!guaranteed) {
                        return; // the process "died" here: it never finishes the item
                    }
                }
                history.completed(name, item, session);
                room.release();
            };
            QueueBuilder<String> builder = QueueBuilder.builder(client, consumer, Strings.UTF8, path).closeTimeout(Duration.ofSeconds(5));
            if (guaranteed) {
                builder.lockPath(path + "-locks");
            } else {
                builder.takeBatch(takeBatch);
            }
            DistributedQueue<String> queue = builder.buildQueue();
            open.add(queue);
            queue.start();
            consumers.add(queue);
        }

        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            BatonClient client = client(ensemble.connectString(), history);
            DistributedQueue<String> queue = QueueBuilder.builder(client, null, Strings.UTF8, path).buildQueue();
            open.add(queue);
            queue.start();
            String producer = "p" + p;
            Thread t = new Thread(() -> produce(queue, producer, history, room), producer);
            t.start();
            producers.add(t);
        }

        // fault 1: a consumer dies in the middle of an item
        assertThat(victimStarted.await(WAIT.toSeconds(), TimeUnit.SECONDS))
            .as("a consumer started an item after 20; completed: %s", history.completedItems()).isTrue();
        BatonClient victimsClient = clients[victim.get()];
        if (guaranteed) {
            SessionKiller.expire(victimsClient, ensemble.connectString(), Duration.ofSeconds(10));
            history.sessionEnded(victimSession.get());
            victimRelease.countDown(); // it finishes the item on a dead claim: it must not be acknowledged
        } else {
            history.consumerDied(names[victim.get()]);
            victimRelease.countDown();
            consumers.get(victim.get()).close();
            victimsClient.close();
        }

        // fault 2: a consumer's connection is cut, then healed
        await().atMost(WAIT).until(() -> history.completedItems() >= 100);
        proxy.cut();
        await().atMost(WAIT).until(() -> !proxied.connectionState().isConnected());
        proxy.heal();

        // fault 3: the leader goes down and comes back
        await().atMost(WAIT).until(() -> history.completedItems() >= 180);
        int leader = ensemble.leaderId();
        ensemble.stop(leader);
        ensemble.restart(leader);

        for (Thread t : producers) {
            t.join(WAIT.toMillis());
        }
        DistributedQueue<String> observer = QueueBuilder.builder(client(ensemble.connectString(), history), null, Strings.UTF8, path)
            .buildQueue();
        open.add(observer);
        observer.start();
        if (guaranteed) {
            await().atMost(WAIT).until(history::allPutItemsCompleted);
            await().atMost(WAIT).until(() -> observer.count() == 0);
            assertThat(observer.deadLetters()).isEmpty();
        } else {
            await().atMost(WAIT).until(() -> observer.count() == 0);
            for (DeadLetter d : observer.deadLetters()) {
                history.deadLettered(d.item(Strings.UTF8));
            }
        }
        // an empty queue can still have items in consumers' hands (taken, callback running): wait for
        // them; only the dead consumer's item may be missing
        await().atMost(WAIT).until(() -> history.completedItems() >= TOTAL - 1);
        return history;
    }

    private static void produce(DistributedQueue<String> queue, String producer, QueueHistory history, Semaphore room) {
        try {
            for (int i = 0; i < PER_PRODUCER; ) {
                int n = i % 20 < 10 ? 1 : 5;
                room.acquire(n);
                List<String> items = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    items.add(producer + "-" + (i + k));
                }
                try {
                    if (n == 1) {
                        queue.put(items.get(0));
                    } else {
                        queue.putMulti(items);
                    }
                    items.forEach(item -> history.put(producer, item));
                } catch (BatonException e) {
                    items.forEach(item -> history.putUncertain(producer, item));
                    room.release(n);
                }
                i += n;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private BatonClient client(String connectString, QueueHistory history) {
        BatonClient client = TestClients.started(BatonClient.builder().connectString(connectString).sessionTimeout(Duration.ofSeconds(3)));
        client.addConnectionStateListener(new ConnectionStateListener() {
            @Override
            public void stateChanged(BatonClient c, ConnectionState newState) {
            }

            @Override
            public void stateChanged(BatonClient c, ConnectionStateChange change) {
                if (change.state() == ConnectionState.LOST) {
                    history.sessionEnded(change.sessionId()); // the client gave the session up: its claims end
                }
            }
        });
        open.add(client);
        return client;
    }
}

package dev.baton.chaos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.queue.QueueBase;
import dev.baton.recipes.queue.QueueBuilder;
import dev.baton.recipes.queue.QueueConsumer;
import dev.baton.recipes.queue.QueueOutcomeUnknownException;
import dev.baton.recipes.queue.QueueSerializer;
import dev.baton.recipes.queue.SimpleDistributedQueue;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.QueueHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Queues under faults, on one child-process ensemble. Guaranteed delivery (a lock path) for the
 * plain, priority, delay and id forms: every item put is consumed; every acknowledgement removes
 * the item together with a live claim of a consumer that completed it; a second delivery only
 * after the first consumer's session ended on the servers. The simple queue: nothing taken twice.
 */
class QueueChaosTest {
    static final QueueSerializer<String> TEXT = new QueueSerializer<>() {
        @Override
        public byte[] serialize(String item) {
            return item.getBytes(UTF_8);
        }

        @Override
        public String deserialize(byte[] bytes) {
            return new String(bytes, UTF_8);
        }
    };
    /** Items are named {@code p<producer>-<n>}, so the truth finds them in an item node's bytes. */
    static final Pattern ITEM = Pattern.compile("p\\d+-\\d+");
    static final Fault[] FAULTS = {Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.CUT_CLIENT, Fault.PAUSE_CLIENT,
        Fault.EXPIRE_SESSION};

    private static EmbeddedEnsemble ensemble;

    @BeforeAll
    static void start() {
        ensemble = ChaosRun.childProcessEnsemble();
    }

    @AfterAll
    static void stop() {
        ensemble.close();
    }

    static List<String> itemIds(byte[] data) {
        List<String> out = new ArrayList<>();
        Matcher m = ITEM.matcher(new String(data, UTF_8));
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** Puts one item on a queue form. */
    @FunctionalInterface
    interface Put {
        void put(QueueBase<String> queue, String item) throws InterruptedException;
    }

    /** Builds a queue form from a configured builder. */
    @FunctionalInterface
    interface Form {
        QueueBase<String> build(QueueBuilder<String> builder);
    }

    /** A consumer that records each delivery under the session it runs on. */
    static QueueConsumer<String> recording(BatonClient client, String name, QueueHistory history, Semaphore room) {
        return item -> {
            long session = client.sessionId();
            history.started(name, item, session);
            history.completed(name, item, session);
            room.release();
        };
    }

    /** Three consumers (clients 0-2) and two producers (3-4) on a guaranteed queue; judged against the servers. */
    static void guaranteedWorkload(ChaosRun run, String path, Form form, Put put) throws Exception {
        QueueHistory history = new QueueHistory();
        String locks = path + "-locks";
        Semaphore room = new Semaphore(100);
        List<QueueBase<String>> queues = new ArrayList<>();
        try {
            for (int c = 0; c < 3; c++) {
                QueueBase<String> q = form.build(QueueBuilder.builder(run.client(c), recording(run.client(c), "consumer-" + c,
                    history, room), TEXT, path).lockPath(locks).closeTimeout(Duration.ofSeconds(5)));
                q.start();
                queues.add(q);
            }
            List<QueueBase<String>> producers = new ArrayList<>();
            for (int p = 3; p < 5; p++) {
                QueueBase<String> q = form.build(QueueBuilder.builder(run.client(p), null, TEXT, path));
                q.start();
                producers.add(q);
                queues.add(q);
            }
            AtomicInteger[] next = {new AtomicInteger(), new AtomicInteger()};
            run.workers.start("producer", 2, p -> {
                room.acquire();
                String item = "p" + p + "-" + next[p].getAndIncrement();
                try {
                    put.put(producers.get(p), item);
                    history.put("producer-" + p, item);
                    return true;
                } catch (RuntimeException e) {
                    history.putUncertain("producer-" + p, item);
                    room.release();
                    throw e;
                }
            });
            run.runFaults();
            try {
                await().atMost(Duration.ofSeconds(60)).until(history::allPutItemsCompleted);
            } catch (ConditionTimeoutException e) {
                run.stuck("items put were not all consumed within 60 s of the heal");
            }
            QueueHistory.Verdict verdict = history.checkAgainstServers(run.truth(), path, locks, "queue-", QueueChaosTest::itemIds);
            run.verdict(history.completedItems(), Map.of(verdict.check(), verdict.problems()));
        } finally {
            queues.forEach(QueueBase::close);
        }
    }

    private static ChaosRun.Builder run(String recipe, String path) {
        return ChaosRun.builder(recipe, ensemble).faults(FAULTS).watch(path, path + "-locks")
            .documented(QueueOutcomeUnknownException.class);
    }

    @Test
    void theGuaranteedQueueLosesAndDuplicatesNothing() throws Exception {
        String path = "/chaos/queue";
        try (ChaosRun run = run("queue", path).faults(Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.LOSE_QUORUM,
            Fault.PAUSE_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION).build()) {
            guaranteedWorkload(run, path, QueueBuilder::buildQueue,
                (q, item) -> ((dev.baton.recipes.queue.DistributedQueue<String>) q).put(item));
        }
    }

    @Test
    void thePriorityQueue() throws Exception {
        String path = "/chaos/priority-queue";
        try (ChaosRun run = run("priority-queue", path).build()) {
            guaranteedWorkload(run, path, QueueBuilder::buildPriorityQueue,
                (q, item) -> ((dev.baton.recipes.queue.DistributedPriorityQueue<String>) q).put(item,
                    ThreadLocalRandom.current().nextInt(10)));
        }
    }

    @Test
    void theDelayQueue() throws Exception {
        String path = "/chaos/delay-queue";
        try (ChaosRun run = run("delay-queue", path).build()) {
            guaranteedWorkload(run, path, QueueBuilder::buildDelayQueue,
                (q, item) -> ((dev.baton.recipes.queue.DistributedDelayQueue<String>) q).put(item,
                    System.currentTimeMillis() + ThreadLocalRandom.current().nextInt(200)));
        }
    }

    @Test
    void theIdQueue() throws Exception {
        String path = "/chaos/id-queue";
        try (ChaosRun run = run("id-queue", path).build()) {
            guaranteedWorkload(run, path, QueueBuilder::buildIdQueue,
                (q, item) -> ((dev.baton.recipes.queue.DistributedIdQueue<String>) q).put(item, item));
        }
    }

    /**
     * ZooKeeper's simple queue: offer and poll. Nothing is taken twice; every item offered is
     * taken, except as many as polls that ended with their outcome unknown (a poll whose delete
     * committed while its reply was lost may have taken an item nobody records).
     */
    @Test
    void theSimpleQueueTakesNothingTwice() throws Exception {
        String path = "/chaos/simple-queue";
        try (ChaosRun run = ChaosRun.builder("simple-queue", ensemble).faults(FAULTS).watch(path)
            .documented(QueueOutcomeUnknownException.class).build()) {
            QueueHistory history = new QueueHistory();
            Semaphore room = new Semaphore(100);
            AtomicLong unknownPolls = new AtomicLong();
            List<SimpleDistributedQueue> queues = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                queues.add(new SimpleDistributedQueue(run.client(i), path));
            }
            AtomicInteger[] next = {new AtomicInteger(), new AtomicInteger()};
            run.workers.start("offer", 2, p -> {
                room.acquire();
                String item = "p" + p + "-" + next[p].getAndIncrement();
                try {
                    queues.get(3 + p).offer(item.getBytes(UTF_8));
                    history.put("producer-" + p, item);
                    return true;
                } catch (RuntimeException e) {
                    history.putUncertain("producer-" + p, item);
                    room.release();
                    throw e;
                }
            });
            run.workers.start("poll", 3, c -> {
                byte[] data;
                try {
                    data = queues.get(c).poll(Duration.ofMillis(500));
                } catch (QueueOutcomeUnknownException e) {
                    unknownPolls.incrementAndGet();
                    room.release();
                    throw e;
                }
                if (data == null) {
                    return true; // an empty queue answered: that is progress too
                }
                String item = new String(data, UTF_8);
                history.started("consumer-" + c, item, run.client(c).sessionId());
                history.completed("consumer-" + c, item, run.client(c).sessionId());
                room.release();
                return true;
            });
            run.runFaults();
            // drain what is left, then judge
            for (byte[] data = queues.get(0).poll(Duration.ofSeconds(2)); data != null;
                 data = queues.get(0).poll(Duration.ofSeconds(2))) {
                String item = new String(data, UTF_8);
                history.started("drain", item, run.client(0).sessionId());
                history.completed("drain", item, run.client(0).sessionId());
            }
            QueueHistory.Verdict atMostOnce = history.checkAtMostOnce();
            List<String> problems = new ArrayList<>();
            List<String> lost = new ArrayList<>();
            for (String p : atMostOnce.problems()) {
                (p.startsWith("lost:") ? lost : problems).add(p);
            }
            if (lost.size() > unknownPolls.get()) {
                problems.add(lost.size() + " items lost but only " + unknownPolls.get() + " polls ended unknown: " + lost);
            }
            Map<String, List<String>> checks = new HashMap<>();
            checks.put("nothing taken twice, nothing lost beyond unknown polls", problems);
            run.verdict(history.completedItems(), checks, lost.size() + " items not taken, " + unknownPolls.get()
                + " polls with an unknown outcome");
        }
    }
}

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Queues under faults, on one child-process ensemble. Guaranteed delivery (a lock path) for the
 * plain, priority, delay and id forms: every item put is consumed; every acknowledgement removes
 * the item together with a live claim of a consumer that completed it; a second delivery only
 * after the first consumer's session ended on the servers. The simple queue: nothing taken twice.
 * In CI the plain form runs alone under all eight in-JVM faults, and the other three and the simple
 * queue side by side under one nemesis; the soak also runs each of those alone.
 */
@Paired
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

    /** The module's shared ensemble (see {@link ChaosRun#childProcessEnsemble()}): not closed here. */
    @BeforeAll
    static void start() {
        ensemble = ChaosRun.childProcessEnsemble();
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

    /** A guaranteed queue form under test: its name in the verdict, its folder, how to build it and put on it. */
    record Guaranteed(String name, String path, Form form, Put put) {
        String locks() {
            return path + "-locks";
        }
    }

    /**
     * Each form's workload side by side under the run's one nemesis: per form, three consumers
     * (clients 0-2) and two producers (clients 3-4) on queues of its own folder, its own history,
     * and its own verdict line judged against the servers. A server fault hits every form at once;
     * a client fault hits the client's consumer or producer of every form.
     */
    static void guaranteedWorkload(ChaosRun run, List<Guaranteed> forms) throws Exception {
        List<Started> started = new ArrayList<>();
        for (Guaranteed g : forms) {
            started.add(startGuaranteed(run, g, forms.size() > 1));
        }
        runAndJudge(run, started);
    }

    /**
     * A workload whose workers are running: once the faults are healed, {@link #judge} adds its
     * checks and notes and returns its completed items; {@link #close} frees what it opened.
     */
    interface Started extends AutoCloseable {
        long judge(ChaosRun run, Map<String, List<String>> checks, List<String> notes) throws Exception;

        @Override
        void close();
    }

    /** Runs the faults over the started workloads, judges each (in order), gives one verdict, and closes them. */
    private static void runAndJudge(ChaosRun run, List<Started> workloads) throws Exception {
        try {
            run.runFaults();
            Map<String, List<String>> checks = new java.util.LinkedHashMap<>();
            List<String> notes = new ArrayList<>();
            long completed = 0;
            for (Started w : workloads) {
                completed += w.judge(run, checks, notes);
            }
            run.verdict(completed, checks, notes.toArray(String[]::new));
        } finally {
            workloads.forEach(Started::close);
        }
    }

    /** Starts one guaranteed form's consumers and producers; {@code named}: its check and note carry its name. */
    private static Started startGuaranteed(ChaosRun run, Guaranteed g, boolean named) throws Exception {
        List<QueueBase<String>> queues = new ArrayList<>();
        QueueHistory history = new QueueHistory();
        Started started = new Started() {
            @Override
            public long judge(ChaosRun r, Map<String, List<String>> checks, List<String> notes) {
                try {
                    await().atMost(Duration.ofSeconds(60)).until(history::allPutItemsCompleted);
                } catch (ConditionTimeoutException timeout) {
                    r.stuck(g.name() + ": items put were not all consumed within 60 s of the heal");
                }
                QueueHistory.Verdict verdict = history.checkAgainstServers(r.truth(), g.path(), g.locks(), "queue-",
                    QueueChaosTest::itemIds);
                checks.put(named ? g.name() + ": " + verdict.check() : verdict.check(), verdict.problems());
                if (named) {
                    notes.add(g.name() + ": " + history.completedItems() + " items completed");
                }
                return history.completedItems();
            }

            @Override
            public void close() {
                queues.forEach(QueueBase::close);
            }
        };
        try {
            Semaphore room = new Semaphore(100);
            for (int c = 0; c < 3; c++) {
                QueueBase<String> q = g.form().build(QueueBuilder.builder(run.client(c), recording(run.client(c),
                    "consumer-" + c, history, room), TEXT, g.path()).lockPath(g.locks()).closeTimeout(Duration.ofSeconds(5)));
                q.start();
                queues.add(q);
            }
            List<QueueBase<String>> producers = new ArrayList<>();
            for (int p = 3; p < 5; p++) {
                QueueBase<String> q = g.form().build(QueueBuilder.builder(run.client(p), null, TEXT, g.path()));
                q.start();
                producers.add(q);
                queues.add(q);
            }
            AtomicInteger[] next = {new AtomicInteger(), new AtomicInteger()};
            run.workers.start(g.name() + "-producer", 2, p -> {
                room.acquire();
                String item = "p" + p + "-" + next[p].getAndIncrement();
                try {
                    g.put().put(producers.get(p), item);
                    history.put("producer-" + p, item);
                    return true;
                } catch (RuntimeException e) {
                    history.putUncertain("producer-" + p, item);
                    room.release();
                    throw e;
                }
            });
            return started;
        } catch (Exception | Error e) {
            started.close();
            throw e;
        }
    }

    private static ChaosRun.Builder run(String recipe, List<Guaranteed> forms) {
        ChaosRun.Builder b = ChaosRun.builder(recipe, ensemble).faults(FAULTS).documented(QueueOutcomeUnknownException.class);
        forms.forEach(g -> b.watch(g.path(), g.locks()));
        return b;
    }

    @Test
    void theGuaranteedQueueLosesAndDuplicatesNothing() throws Exception {
        List<Guaranteed> forms = List.of(new Guaranteed("queue", "/chaos/queue", QueueBuilder::buildQueue,
            (q, item) -> ((dev.baton.recipes.queue.DistributedQueue<String>) q).put(item)));
        try (ChaosRun run = run("queue", forms).faults(Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.LOSE_QUORUM,
            Fault.PAUSE_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION).build()) {
            guaranteedWorkload(run, forms);
        }
    }

    /**
     * The priority, delay and id forms, each with the plain queue's workload and checker, and the
     * simple queue with its own, side by side in one run: every fault kind of the run reaches all
     * four (a server fault at once, a client fault through the client that hosts one consumer or
     * producer of each), at the cost of one nemesis schedule instead of four. The soak
     * ({@code -Pchaos-soak}) runs each alone as well, with every fault kind.
     */
    @Test
    void thePriorityDelayIdAndSimpleQueuesSideBySide() throws Exception {
        List<Guaranteed> forms = List.of(PRIORITY, DELAY, ID);
        try (ChaosRun run = run("queue-forms", forms).watch(SIMPLE).build()) {
            List<Started> started = new ArrayList<>();
            try {
                for (Guaranteed g : forms) {
                    started.add(startGuaranteed(run, g, true));
                }
                started.add(startSimple(run, true));
            } catch (Exception | Error e) {
                started.forEach(Started::close);
                throw e;
            }
            runAndJudge(run, started);
        }
    }

    static final Guaranteed PRIORITY = new Guaranteed("priority-queue", "/chaos/priority-queue",
        QueueBuilder::buildPriorityQueue, (q, item) -> ((dev.baton.recipes.queue.DistributedPriorityQueue<String>) q).put(item,
            ThreadLocalRandom.current().nextInt(10)));
    static final Guaranteed DELAY = new Guaranteed("delay-queue", "/chaos/delay-queue", QueueBuilder::buildDelayQueue,
        (q, item) -> ((dev.baton.recipes.queue.DistributedDelayQueue<String>) q).put(item,
            System.currentTimeMillis() + ThreadLocalRandom.current().nextInt(200)));
    static final Guaranteed ID = new Guaranteed("id-queue", "/chaos/id-queue", QueueBuilder::buildIdQueue,
        (q, item) -> ((dev.baton.recipes.queue.DistributedIdQueue<String>) q).put(item, item));

    /** The priority form alone, soak only ({@code -Pchaos-soak}): the side-by-side run covers it in CI. */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void thePriorityQueue() throws Exception {
        alone(PRIORITY);
    }

    /** The delay form alone, soak only ({@code -Pchaos-soak}): the side-by-side run covers it in CI. */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void theDelayQueue() throws Exception {
        alone(DELAY);
    }

    /** The id form alone, soak only ({@code -Pchaos-soak}): the side-by-side run covers it in CI. */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void theIdQueue() throws Exception {
        alone(ID);
    }

    private static void alone(Guaranteed g) throws Exception {
        try (ChaosRun run = run(g.name(), List.of(g)).build()) {
            guaranteedWorkload(run, List.of(g));
        }
    }

    private static final String SIMPLE = "/chaos/simple-queue";

    /**
     * ZooKeeper's simple queue: offer and poll. Nothing is taken twice; every item offered is
     * taken, except as many as polls that ended with their outcome unknown (a poll whose delete
     * committed while its reply was lost may have taken an item nobody records). Soak only
     * ({@code -Pchaos-soak}): in CI it runs beside the priority, delay and id queues, under the
     * same five faults.
     */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void theSimpleQueueTakesNothingTwice() throws Exception {
        try (ChaosRun run = ChaosRun.builder("simple-queue", ensemble).faults(FAULTS).watch(SIMPLE)
            .documented(QueueOutcomeUnknownException.class).build()) {
            runAndJudge(run, List.of(startSimple(run, false)));
        }
    }

    /**
     * Starts the simple queue's two offerers (clients 3-4) and three pollers (clients 0-2); after
     * the heal its judge drains what is left and checks it. {@code named}: its check and note carry
     * its name.
     */
    private static Started startSimple(ChaosRun run, boolean named) {
        QueueHistory history = new QueueHistory();
        Semaphore room = new Semaphore(100);
        AtomicLong unknownPolls = new AtomicLong();
        List<SimpleDistributedQueue> queues = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            queues.add(new SimpleDistributedQueue(run.client(i), SIMPLE));
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
        return new Started() {
            @Override
            public long judge(ChaosRun r, Map<String, List<String>> checks, List<String> notes) throws Exception {
                // drain what is left, then judge
                for (byte[] data = queues.get(0).poll(Duration.ofSeconds(2)); data != null;
                     data = queues.get(0).poll(Duration.ofSeconds(2))) {
                    String item = new String(data, UTF_8);
                    history.started("drain", item, r.client(0).sessionId());
                    history.completed("drain", item, r.client(0).sessionId());
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
                String prefix = named ? "simple-queue: " : "";
                checks.put(prefix + "nothing taken twice, nothing lost beyond unknown polls", problems);
                notes.add(prefix + (named ? history.completedItems() + " items completed, " : "") + lost.size()
                    + " items not taken, " + unknownPolls.get() + " polls with an unknown outcome");
                return history.completedItems();
            }

            @Override
            public void close() {
                // a simple queue holds nothing open: its client closes with the run
            }
        };
    }
}

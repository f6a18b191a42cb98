package dev.baton.chaos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NodeExistsException;
import dev.baton.recipes.transaction.Decision;
import dev.baton.recipes.transaction.PendingTransaction;
import dev.baton.recipes.transaction.Transaction;
import dev.baton.recipes.transaction.TransactionCoordinator;
import dev.baton.recipes.transaction.TransactionException;
import dev.baton.recipes.transaction.TransactionFolder;
import dev.baton.recipes.transaction.TransactionHandler;
import dev.baton.recipes.transaction.TransactionParticipant;
import dev.baton.recipes.transaction.TransactionStatus;
import dev.baton.recipes.transaction.Vote;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.TestClients;
import dev.baton.test.history.TransactionHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two-phase commit under faults, on one child-process ensemble: five clients each run a
 * participant and a coordinator that keeps up to three transactions in flight over 2–4 random
 * participants; participants vote commit, abort, throw, or take longer than the deadline, and
 * are restarted (a new incarnation) now and then. Judged by {@link TransactionHistory}: atomic
 * commitment, validity, told once per incarnation, and termination within the deadline plus
 * {@link #MARGIN} (counted from the heal for a deadline that fell inside the faults); after the
 * heal every participant must have been told and every transaction's nodes removed. Two canaries
 * show the checker catches a site that acts on its own tally and a coordinator that decides
 * commit without every vote.
 *
 * <p>The workload's choices (participants, votes, slow prepares, restart victims) come from
 * {@link Random}s seeded from the run's seed, so {@code -Dbaton.chaos.seed} replays them along
 * with the fault schedule (the threads' interleaving is still the machine's).
 */
@Paired
class TransactionChaosTest {
    private static final String FOLDER = "/chaos/tx";
    private static final Duration DEADLINE = Duration.ofSeconds(2);
    /**
     * Termination margin once healthy: a coordinator or participant whose session the faults
     * ended needs a new one (up to a session timeout, 3 s), and a step that failed for want of a
     * connection is looked at again a second later.
     */
    private static final Duration MARGIN = Duration.ofSeconds(5);
    /**
     * Decided transactions not everyone acknowledged are removed after this: longer than any
     * participant is away here (a client frozen for a session timeout and a second, then a new
     * session; a restart that waits out a fault), or a participant could come back to find its
     * transaction gone.
     */
    private static final Duration RETENTION = Duration.ofSeconds(12);
    private static final int SITES = 5;
    private static final int IN_FLIGHT = 3;
    /**
     * A server crash, no quorum at all (deadlines pass while nobody can write: termination is
     * judged from the heal), and each way a site loses its connection or its session. The slower
     * server faults (restart, pause) and client delays add nothing these do not, at 4-7 s each of
     * the suite's time; the soak profile ({@code -Dbaton.chaos.allFaults=true}) runs all eight.
     */
    static final Fault[] FAULTS = {Fault.KILL_LEADER, Fault.LOSE_QUORUM, Fault.CUT_CLIENT, Fault.PAUSE_CLIENT,
        Fault.EXPIRE_SESSION};

    private static EmbeddedEnsemble ensemble;

    /** The module's shared ensemble (see {@link ChaosRun#childProcessEnsemble()}): not closed here. */
    @BeforeAll
    static void start() {
        ensemble = ChaosRun.childProcessEnsemble();
    }

    /**
     * A participant's handler: votes and slow work drawn from its participant's seeded random,
     * every answer and every outcome recorded. Its prepare is durable as the recipe asks: an
     * answer is kept (in {@code durable}, which outlives incarnations) before it is returned, and
     * a later prepare of the same transaction answers the same.
     */
    static class Recorded implements TransactionHandler {
        private final Map<String, Boolean> durable;
        private final Random random;
        private final TransactionHistory history;
        private final String me;
        private final String incarnation;

        Recorded(Map<String, Boolean> durable, Random random, TransactionHistory history, String me, String incarnation) {
            this.durable = durable;
            this.random = random;
            this.history = history;
            this.me = me;
            this.incarnation = incarnation;
        }

        @Override
        public Vote prepare(Transaction tx) throws Exception {
            Boolean recorded = durable.get(me + "/" + tx.id());
            if (recorded != null) {
                history.voted(tx.id(), tx.participants(), me, recorded);
                return recorded ? Vote.COMMIT : Vote.ABORT;
            }
            int roll;
            long slow;
            synchronized (random) {
                roll = random.nextInt(100);
                slow = DEADLINE.toMillis() / 2 + random.nextInt((int) DEADLINE.toMillis());
            }
            if (roll < 10) {
                // simulated work that outlasts the deadline about half the time: the vote races the deadline
                TimeUnit.MILLISECONDS.sleep(slow);
            }
            boolean commit = roll < 94;
            durable.put(me + "/" + tx.id(), commit);
            history.voted(tx.id(), tx.participants(), me, commit);
            if (roll >= 94 && roll < 97) {
                throw new IllegalStateException("simulated failure in prepare");
            }
            return commit ? Vote.COMMIT : Vote.ABORT;
        }

        @Override
        public void commit(Transaction tx) {
            history.told(tx.id(), tx.participants(), me, incarnation, true);
        }

        @Override
        public void abort(Transaction tx) {
            history.told(tx.id(), tx.participants(), me, incarnation, false);
        }
    }

    /** The participants of one run, each restartable as a new incarnation. */
    private static final class Sites implements AutoCloseable {
        final TransactionHistory history;
        final String folder;
        final ExecutorService handlers = Executors.newFixedThreadPool(4 * SITES);
        final Map<String, Boolean> durable = new ConcurrentHashMap<>();
        final List<Random> randoms = new ArrayList<>();
        final AtomicReferenceArray<TransactionParticipant> live;
        final AtomicInteger incarnations = new AtomicInteger();
        /** When the run began, for the timeline a failed run prints. */
        final long began = System.nanoTime();
        /** What happened to each participant's incarnations and clients, in order: where a failed run starts looking. */
        final List<String> timeline = java.util.Collections.synchronizedList(new ArrayList<>());

        void note(String what) {
            timeline.add(String.format("t+%.2fs %s", (System.nanoTime() - began) / 1e9, what));
        }

        Sites(TransactionHistory history, String folder, long seed, int count) {
            this.history = history;
            this.folder = folder;
            this.live = new AtomicReferenceArray<>(count);
            for (int i = 0; i < count; i++) {
                randoms.add(new Random(seed * 31 + i));
            }
        }

        /** Starts participant {@code i}'s next incarnation on {@code client}. */
        void start(BatonClient client, int i) throws InterruptedException {
            String id = "p" + i;
            TransactionParticipant p = TransactionParticipant.builder(client, folder, id,
                    new Recorded(durable, randoms.get(i), history, id, id + "#" + incarnations.incrementAndGet()))
                .handlerExecutor(handlers).retention(RETENTION).startTimeout(Duration.ofSeconds(20)).build();
            note(id + " " + p.hashCode() + " starting");
            p.start();
            live.set(i, p);
            note(id + " " + p.hashCode() + " started (client session 0x" + Long.toHexString(client.sessionId()) + ")");
        }

        /** The incarnation of {@code i} dies: no more calls into its handler begin. */
        void kill(int i) {
            TransactionParticipant p = live.getAndSet(i, null);
            if (p != null) {
                note("p" + i + " " + p.hashCode() + " killed");
                p.close();
            }
        }

        @Override
        public void close() {
            for (int i = 0; i < live.length(); i++) {
                kill(i);
            }
            handlers.shutdownNow();
        }
    }

    @Test
    void everyoneAgreesCommitsAreValidAndEveryTransactionEndsUnderFaults() throws Exception {
        TransactionHistory history = new TransactionHistory();
        List<TransactionCoordinator> coordinators = new ArrayList<>();
        try (ChaosRun run = ChaosRun.builder("transaction", ensemble).clients(SITES).faults(FAULTS).watch(FOLDER).build();
             Sites sites = new Sites(history, FOLDER, run.seed, SITES)) {
            for (int i = 0; i < SITES; i++) {
                int c = i;
                run.client(i).addConnectionStateListener(new dev.baton.framework.ConnectionStateListener() {
                    @Override
                    public void stateChanged(BatonClient client, dev.baton.framework.ConnectionState newState) {
                    }

                    @Override
                    public void stateChanged(BatonClient client, dev.baton.framework.ConnectionStateChange change) {
                        sites.note("client " + c + " " + change.state() + " session 0x" + Long.toHexString(change.sessionId()));
                    }
                });
                sites.start(run.client(i), i);
                coordinators.add(TransactionCoordinator.builder(run.client(i), FOLDER).build());
            }
            Random choices = new Random(run.seed);
            Semaphore[] inFlight = new Semaphore[SITES];
            for (int i = 0; i < SITES; i++) {
                inFlight[i] = new Semaphore(IN_FLIGHT);
            }
            run.workers.start("coordinator", SITES, i -> startOne(coordinators.get(i), "coordinator-" + i, inFlight[i], history,
                choices));
            run.workers.start("restarter", 1, i -> {
                long pause;
                int victim;
                synchronized (choices) {
                    pause = 1500 + choices.nextInt(2000);
                    victim = choices.nextInt(SITES);
                }
                run.workers.pace(Duration.ofMillis(pause));
                sites.kill(victim); // the incarnation dies; a new one takes over its id
                return restart(run, sites, victim);
            });
            run.runFaults();
            history.healthyFrom(run.healedNanos());
            for (int i = 0; i < SITES; i++) {
                if (sites.live.get(i) == null) {
                    sites.start(run.client(i), i);
                }
            }

            awaitQuietly(Duration.ofSeconds(30), history::everyParticipantTold);
            TransactionFolder folder = new TransactionFolder(run.client(0), FOLDER);
            // nodes of a transaction whose start threw after its create landed wait out the retention
            awaitQuietly(RETENTION.plusSeconds(15), () -> folder.transactions().isEmpty());
            List<String> leftOver = folder.transactions().stream().map(TransactionChaosTest::describe).toList();
            Map<Boolean, Long> outcomes = history.decidedByOutcome();
            Map<String, List<String>> checks = new LinkedHashMap<>();
            checks.put("atomic commitment", history.checkAtomicCommitment().violations());
            checks.put("validity", history.checkValidity().violations());
            checks.put("told once per incarnation", history.checkToldOncePerIncarnation().violations());
            checks.put("termination", history.checkTermination(MARGIN).violations());
            checks.put("every participant told", history.checkEveryParticipantTold().violations());
            if (!history.checkEveryParticipantTold().isOk()) {
                // the timeline a failure needs: when the untold transactions started, against the incarnations and sessions
                history.events().stream().filter(e -> e.kind() == TransactionHistory.Kind.STARTED)
                    .forEach(e -> sites.timeline.add(String.format("t+%.2fs started %s over %s", (e.nanos() - sites.began) / 1e9,
                        e.tx().replaceAll("_c_[0-9a-f-]*-", ""), e.participants())));
                System.out.println("[transaction timeline]\n  " + String.join("\n  ", sites.timeline.stream().sorted(
                    java.util.Comparator.comparingDouble(l -> Double.parseDouble(l.substring(2, l.indexOf('s'))))).toList()));
            }
            checks.put("nodes cleaned up", leftOver);
            run.verdict(history.startedCount(), checks, history.startedCount() + " transactions started, " + outcomes.get(true)
                + " committed, " + outcomes.get(false) + " aborted, " + sites.incarnations.get() + " participant incarnations",
                "termination: the latest first decision came " + latestAgainstDue(history, run.healedNanos()) / 1_000_000
                    + " ms after max(start + deadline, heal) (the margin allows " + MARGIN.toMillis() + " ms)");
            assertThat(outcomes.get(true)).as("some transactions committed (seed %d)", run.seed).isPositive();
            assertThat(outcomes.get(false)).as("some transactions aborted (seed %d)", run.seed).isPositive();
        } finally {
            coordinators.forEach(TransactionCoordinator::close);
        }
    }

    /**
     * Starts participant {@code i}'s next incarnation, again and again while the client has no
     * connection (as a supervisor would), so that no participant stays away for longer than the
     * faults last; each failed start is counted by the workers.
     */
    private static boolean restart(ChaosRun run, Sites sites, int i) throws InterruptedException {
        while (!run.workers.stopping()) {
            try {
                sites.start(run.client(i), i);
                return true;
            } catch (TransactionException | dev.baton.framework.ConnectionLossException
                     | dev.baton.framework.SessionExpiredException | dev.baton.framework.OperationTimeoutException e) {
                if (!(e instanceof TransactionException)) {
                    run.workers.failed("restarter", e);
                }
                run.workers.pace(Duration.ofMillis(300));
            }
        }
        return false;
    }

    /**
     * How far past {@code max(start + deadline, heal)} the latest transaction was first seen
     * decided, in ns (negative: every one before its due time): the headroom the margin has.
     */
    private static long latestAgainstDue(TransactionHistory history, long healed) {
        Map<String, Long> due = new HashMap<>();
        Map<String, Long> decided = new HashMap<>();
        for (TransactionHistory.Event e : history.events()) {
            switch (e.kind()) {
                case STARTED -> due.put(e.tx(), Math.max(e.nanos() + e.deadline().toNanos(), healed));
                case TOLD, REPORTED -> decided.merge(e.tx(), e.nanos(), Math::min);
                case VOTED -> {
                }
            }
        }
        long latest = Long.MIN_VALUE;
        for (Map.Entry<String, Long> d : due.entrySet()) {
            if (decided.containsKey(d.getKey())) {
                latest = Math.max(latest, decided.get(d.getKey()) - d.getValue());
            }
        }
        return latest;
    }

    private static String describe(TransactionStatus t) {
        return t.id() + " " + t.transaction().participants() + " votes " + t.votes() + " decision " + t.decision()
            + " acknowledged by " + t.acknowledged() + (t.coordinatorAcknowledged() ? " and the coordinator" : "");
    }

    /** Waits for {@code condition} up to {@code limit}; the verdict then says what did not happen. */
    private static void awaitQuietly(Duration limit, Callable<Boolean> condition) {
        try {
            await().atMost(limit).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(condition);
        } catch (ConditionTimeoutException e) {
            // reported by the checks
        }
    }

    /** Starts one transaction over 2–4 random participants, keeping at most {@link #IN_FLIGHT} of this coordinator's in flight. */
    private static boolean startOne(TransactionCoordinator coordinator, String name, Semaphore inFlight, TransactionHistory history,
                                    Random choices) throws InterruptedException {
        inFlight.acquire();
        List<String> ids = new ArrayList<>(List.of("p0", "p1", "p2", "p3", "p4"));
        List<String> chosen;
        synchronized (choices) {
            Collections.shuffle(ids, choices);
            chosen = List.copyOf(ids.subList(0, 2 + choices.nextInt(3)));
        }
        long t0 = System.nanoTime();
        PendingTransaction tx;
        try {
            tx = coordinator.start(chosen, name.getBytes(UTF_8), DEADLINE);
        } catch (RuntimeException e) {
            inFlight.release(); // no connection for too long: it may exist; its participants decide it
            throw e;
        }
        history.started(tx.id(), name, chosen, DEADLINE, t0);
        tx.decision().whenComplete((Decision d, Throwable e) -> {
            if (d != null) {
                history.reported(tx.id(), name, d.isCommit());
            }
            inFlight.release();
        });
        return true;
    }

    /** How long one canary round's workload runs at most before it is stopped and its history settled. */
    private static final Duration CANARY_ROUND = Duration.ofSeconds(10);
    /** How long a round's history may take to settle: the in-flight prepares (under 1 s) and a decision at the deadline (1 s). */
    private static final Duration CANARY_SETTLE = Duration.ofSeconds(20);
    /** Rounds are run until a settled history is flagged, or this long. */
    private static final Duration CANARY_LIMIT = Duration.ofSeconds(60);

    /**
     * The short healthy workload the canaries break: participants a and b and a coordinator
     * starting one transaction at a time over both (deadline 1 s), with b's vote landing just
     * before the deadline (after 850-950 ms) and one time in four abort. {@code rogue} runs
     * beside it, polling the folder.
     *
     * <p>The verdict is the checker {@code caught} applied to a <em>settled</em> history. A check
     * of the live history is only a hint that a round has something: it can flag a commit whose
     * participant b has not voted <em>yet</em>, and b's commit vote, landing later, makes that
     * history valid after all (validity is about the votes cast, whenever they land). So each
     * round runs the workload until the live check flags (or {@link #CANARY_ROUND} passes),
     * stops the coordinator and the rogue, waits until no prepare is running and every
     * participant of every started transaction was told its outcome — after which no vote or
     * outcome can be added — and then judges. Rounds go on until a settled judgement flags or
     * {@link #CANARY_LIMIT} passes; that judgement is returned.
     */
    private static List<String> canaryRun(String folder, TransactionHistory history, Rogue rogue,
                                          Callable<List<String>> caught) throws Exception {
        Duration deadline = Duration.ofSeconds(1);
        // a folder of this run's own: a transaction left by an earlier run in the same ensemble is in no history here
        String txFolder = folder + "-" + Long.toHexString(System.nanoTime());
        long giveUp = System.nanoTime() + CANARY_LIMIT.toNanos();
        AtomicInteger preparing = new AtomicInteger();
        List<String> surprises = new ArrayList<>();
        List<AutoCloseable> open = new ArrayList<>();
        ExecutorService handlers = Executors.newCachedThreadPool();
        try {
            BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
            open.add(client);
            Random random = new Random(ChaosRun.seed());
            for (String id : List.of("a", "b")) {
                TransactionParticipant p = TransactionParticipant.builder(client, txFolder, id, new TransactionHandler() {
                    @Override
                    public Vote prepare(Transaction tx) throws Exception {
                        preparing.incrementAndGet();
                        try {
                            boolean commit = true;
                            if (id.equals("b")) {
                                long wait;
                                synchronized (random) {
                                    wait = 850 + random.nextInt(100);
                                    commit = random.nextInt(4) > 0;
                                }
                                // b's vote lands around the deadline: the race an own tally gets wrong
                                TimeUnit.MILLISECONDS.sleep(wait);
                            }
                            history.voted(tx.id(), tx.participants(), id, commit);
                            return commit ? Vote.COMMIT : Vote.ABORT;
                        } finally {
                            preparing.decrementAndGet();
                        }
                    }

                    @Override
                    public void commit(Transaction tx) {
                        history.told(tx.id(), tx.participants(), id, id, true);
                    }

                    @Override
                    public void abort(Transaction tx) {
                        history.told(tx.id(), tx.participants(), id, id, false);
                    }
                }).handlerExecutor(handlers).build();
                p.start();
                open.add(0, p);
            }
            TransactionCoordinator coordinator = TransactionCoordinator.builder(client, txFolder).build();
            open.add(0, coordinator);
            TransactionFolder view = new TransactionFolder(client, txFolder);
            for (int round = 1; ; round++) {
                Workers workers = new Workers(ChaosRun.CONNECTION_TROUBLE);
                try {
                    workers.start("coordinator", 1, i -> {
                        long t0 = System.nanoTime();
                        PendingTransaction tx = coordinator.start(List.of("a", "b"), new byte[0], deadline);
                        history.started(tx.id(), "coordinator", List.of("a", "b"), deadline, t0);
                        Decision d = tx.await(Duration.ofSeconds(10));
                        if (d != null) {
                            history.reported(tx.id(), "coordinator", d.isCommit());
                        }
                        return true;
                    });
                    workers.start("rogue", 1, i -> {
                        for (TransactionStatus s : view.transactions()) {
                            rogue.look(client, txFolder + "/transactions/" + s.id(), s, deadline);
                        }
                        workers.pace(Duration.ofMillis(10));
                        return true;
                    });
                    awaitQuietly(CANARY_ROUND, () -> !caught.call().isEmpty());
                } finally {
                    workers.stop(); // the coordinator's last transaction is decided (it waits for that) before it stops
                }
                surprises.addAll(workers.surprises());
                int flaggedAtStop = caught.call().size();
                // settled: no prepare running and every participant of every started transaction told, so no vote
                // (and no outcome) can be added to the history any more
                awaitQuietly(CANARY_SETTLE, () -> preparing.get() == 0 && history.everyParticipantTold());
                assertThat(preparing.get()).as("prepares still running %s after the round stopped", CANARY_SETTLE).isZero();
                assertThat(history.checkEveryParticipantTold().violations())
                    .as("participants not told within %s after the round stopped", CANARY_SETTLE).isEmpty();
                List<String> settled = caught.call();
                System.out.println("[transaction canary] round " + round + ": " + flaggedAtStop + " violation(s) flagged when the "
                    + "workload stopped, " + settled.size() + " in the settled history (" + history.startedCount()
                    + " transactions started so far)");
                if (!settled.isEmpty() || System.nanoTime() - giveUp >= 0) {
                    assertThat(surprises).as("the canary's workload ran cleanly").isEmpty();
                    return settled;
                }
            }
        } finally {
            for (AutoCloseable c : open) {
                c.close();
            }
            handlers.shutdownNow();
        }
    }

    /** What a canary does beside the honest workload, each time it reads a transaction. */
    @FunctionalInterface
    private interface Rogue {
        void look(BatonClient client, String txPath, TransactionStatus seen, Duration deadline) throws Exception;
    }

    /**
     * Atomic commitment can fail: a site that acts on its own tally — commit when it has seen
     * every vote commit, abort when its own deadline (on a clock that runs a fifth fast) passes
     * with votes missing — instead of on the decision node must be caught.
     */
    @Test
    void aSiteActingOnItsOwnTallyIsCaught() throws Exception {
        TransactionHistory history = new TransactionHistory();
        Map<String, Long> firstSeen = new HashMap<>();
        Map<String, Boolean> acted = new HashMap<>();
        List<String> caught = canaryRun("/chaos/tx-canary-tally", history, (client, path, s, deadline) -> {
            long seen = firstSeen.computeIfAbsent(s.id(), k -> System.nanoTime());
            if (acted.containsKey(s.id()) || s.decided()) {
                return;
            }
            boolean allCommit = s.votes().size() == 2 && !s.votes().containsValue(Vote.ABORT);
            boolean ownDeadline = System.nanoTime() - seen > deadline.toNanos() * 4 / 5;
            if (allCommit || s.votes().containsValue(Vote.ABORT) || ownDeadline) {
                acted.put(s.id(), allCommit);
                history.told(s.id(), s.transaction().participants(), "canary", "canary", allCommit);
            }
        }, () -> history.checkAtomicCommitment().violations());
        System.out.println("[transaction canary] atomic commitment caught " + caught.size() + " disagreement(s), e.g. "
            + (caught.isEmpty() ? "none" : caught.get(0)));
        assertThat(caught).as("a site acting on its own tally must be caught").isNotEmpty()
            .allSatisfy(v -> assertThat(v).contains("canary"));
    }

    /**
     * Validity can fail: a coordinator that records commit as soon as it sees a transaction,
     * without the check of the votes the recipe puts in the same write, must be caught — the
     * honest participants are told that commit (it is what the decision node says), including b
     * when it voted abort.
     */
    @Test
    void aCoordinatorThatDecidesCommitWithoutEveryVoteIsCaught() throws Exception {
        TransactionHistory history = new TransactionHistory();
        List<String> caught = canaryRun("/chaos/tx-canary-validity", history, (client, path, s, deadline) -> {
            if (!s.decided()) {
                try {
                    client.create().forPath(path + "/decision", "commit\nrecorded by a rogue coordinator".getBytes(UTF_8));
                } catch (NodeExistsException decidedMeanwhile) {
                    // someone recorded first: nothing to break this time
                }
            }
        }, () -> history.checkValidity().violations());
        System.out.println("[transaction canary] validity caught " + caught.size() + " commit(s) without every vote, e.g. "
            + (caught.isEmpty() ? "none" : caught.get(0)));
        assertThat(caught).as("a commit recorded without every commit vote must be caught").isNotEmpty()
            .allSatisfy(v -> assertThat(v).containsAnyOf("never voted commit", "voted abort"));
    }
}

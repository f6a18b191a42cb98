package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.transaction.Decision;
import dev.baton.recipes.transaction.PendingTransaction;
import dev.baton.recipes.transaction.Transaction;
import dev.baton.recipes.transaction.TransactionCoordinator;
import dev.baton.recipes.transaction.TransactionFolder;
import dev.baton.recipes.transaction.TransactionHandler;
import dev.baton.recipes.transaction.TransactionParticipant;
import dev.baton.recipes.transaction.TransactionStatus;
import dev.baton.recipes.transaction.Vote;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.TestClients;
import dev.baton.test.history.TransactionHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/**
 * Two-phase commit under faults: five clients each run a participant and a coordinator that keeps
 * up to four transactions in flight over 2–4 random participants; participants vote commit,
 * abort, throw, or take longer than the deadline, and are restarted (a new incarnation) now and
 * then. Judged by {@link TransactionHistory}: atomic commitment, validity, told once per
 * incarnation, and termination within the deadline plus {@link #MARGIN} (counted from the end of
 * the faults for a deadline that fell inside them); after the faults every participant must have
 * been told and every transaction's nodes removed.
 */
@EnsembleTest(nodes = 3)
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
     * participant is away here (a client frozen for 5 s, then a new session; a restart that
     * waits out a fault), or a participant could come back to find its transaction gone.
     */
    private static final Duration RETENTION = Duration.ofSeconds(12);
    private static final int SITES = 5;

    EmbeddedEnsemble ensemble;

    /**
     * A participant's handler: random votes and work, every answer and every outcome recorded.
     * Its prepare is durable as the recipe asks: an answer is kept (in {@link #DURABLE}, which
     * outlives incarnations) before it is returned, and a later prepare of the same transaction
     * answers the same.
     */
    static class Recorded implements TransactionHandler {
        /** Each participant's prepare record, by participant and transaction: true commit, false abort. */
        private static final Map<String, Boolean> DURABLE = new java.util.concurrent.ConcurrentHashMap<>();
        private final TransactionHistory history;
        private final String me;
        private final String incarnation;

        Recorded(TransactionHistory history, String me, String incarnation) {
            this.history = history;
            this.me = me;
            this.incarnation = incarnation;
        }

        @Override
        public Vote prepare(Transaction tx) throws Exception {
            Boolean recorded = DURABLE.get(me + "/" + tx.id());
            if (recorded != null) {
                history.voted(tx.id(), tx.participants(), me, recorded);
                return recorded ? Vote.COMMIT : Vote.ABORT;
            }
            int roll = ThreadLocalRandom.current().nextInt(100);
            if (roll < 10) {
                // simulated work that outlasts the deadline about half the time: the vote races the deadline
                TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextLong(DEADLINE.toMillis() / 2, DEADLINE.toMillis() * 3 / 2));
            }
            boolean commit = roll < 94;
            DURABLE.put(me + "/" + tx.id(), commit);
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

    @Test
    void everyoneAgreesCommitsAreValidAndEveryTransactionEndsUnderFaults() throws Exception {
        TransactionHistory history = new TransactionHistory();
        ExecutorService handlers = Executors.newFixedThreadPool(4 * SITES);
        AtomicReferenceArray<TransactionParticipant> participants = new AtomicReferenceArray<>(SITES);
        AtomicInteger incarnations = new AtomicInteger();
        try (ChaosRun run = new ChaosRun("transaction", ensemble, SITES, Duration.ofSeconds(3),
            Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.LOSE_QUORUM, Fault.CUT_CLIENT, Fault.DELAY_CLIENT,
            Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION)) {
            for (int i = 0; i < SITES; i++) {
                participants.set(i, startParticipant(run.client(i), i, history, handlers, incarnations));
            }
            List<TransactionCoordinator> coordinators = new ArrayList<>();
            for (int i = 0; i < SITES; i++) {
                coordinators.add(TransactionCoordinator.builder(run.client(i), FOLDER).build());
            }
            Workers workers = new Workers();
            Semaphore[] inFlight = new Semaphore[SITES];
            for (int i = 0; i < SITES; i++) {
                inFlight[i] = new Semaphore(4);
            }
            workers.start("coordinator", SITES, i -> startOne(coordinators.get(i), "coordinator-" + i, inFlight[i], history));
            workers.start("restarter", 1, i -> {
                workers.pace(Duration.ofMillis(ThreadLocalRandom.current().nextLong(2000, 4000)));
                int victim = ThreadLocalRandom.current().nextInt(SITES);
                participants.get(victim).close(); // the incarnation dies; a new one takes over its id
                participants.set(victim, null);
                // a start fails while the client has no connection for too long: start it again, as a supervisor would
                while (participants.get(victim) == null && !workers.stopping()) {
                    try {
                        participants.set(victim, startParticipant(run.client(victim), victim, history, handlers, incarnations));
                    } catch (RuntimeException e) {
                        workers.pace(Duration.ofMillis(500));
                    }
                }
                return false;
            });
            run.runFaults(ChaosRun.duration().multipliedBy(2).dividedBy(3));
            history.healthyFrom(System.nanoTime());
            // a little more work on the healed ensemble, judged by the same deadline + margin
            new Workers().pace(Duration.ofSeconds(2));
            workers.stop();
            for (int i = 0; i < SITES; i++) {
                if (participants.get(i) == null) {
                    participants.set(i, startParticipant(run.client(i), i, history, handlers, incarnations));
                }
            }

            awaitQuietly(Duration.ofSeconds(30), history::everyParticipantTold);
            TransactionFolder folder = new TransactionFolder(run.client(0), FOLDER);
            awaitQuietly(Duration.ofSeconds(30), () -> folder.transactions().isEmpty());
            List<String> leftOver = folder.transactions().stream()
                .map(t -> t.id() + " " + t.transaction().participants() + " votes " + t.votes() + " decision " + t.decision()
                    + " acknowledged by " + t.acknowledged() + (t.coordinatorAcknowledged() ? " and the coordinator" : ""))
                .toList();
            Map<Boolean, Long> outcomes = history.decidedByOutcome();
            System.out.println("[transaction] " + history.startedCount() + " transactions started, " + outcomes.get(true)
                + " committed, " + outcomes.get(false) + " aborted, " + incarnations.get() + " participant incarnations");
            Map<String, List<String>> checks = new LinkedHashMap<>();
            checks.put("atomic commitment", history.checkAtomicCommitment().violations());
            checks.put("validity", history.checkValidity().violations());
            checks.put("told once per incarnation", history.checkToldOncePerIncarnation().violations());
            checks.put("termination", history.checkTermination(MARGIN).violations());
            checks.put("every participant told", history.checkEveryParticipantTold().violations());
            checks.put("nodes cleaned up", leftOver);
            run.verdict(history.startedCount(), checks);
            assertThat(outcomes.get(true)).as("some transactions committed").isPositive();
            assertThat(outcomes.get(false)).as("some transactions aborted").isPositive();
            coordinators.forEach(TransactionCoordinator::close);
        } finally {
            for (int i = 0; i < SITES; i++) {
                if (participants.get(i) != null) {
                    participants.get(i).close();
                }
            }
            handlers.shutdownNow();
        }
    }

    /** Waits for {@code condition} up to {@code limit}; the verdict then says what did not happen. */
    private static void awaitQuietly(Duration limit, java.util.concurrent.Callable<Boolean> condition) {
        try {
            await().atMost(limit).ignoreExceptions().until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // reported by the checks
        }
    }

    private static TransactionParticipant startParticipant(BatonClient client, int i, TransactionHistory history,
                                                           ExecutorService handlers, AtomicInteger incarnations)
        throws InterruptedException {
        String id = "p" + i;
        TransactionParticipant p = TransactionParticipant.builder(client, FOLDER, id,
                new Recorded(history, id, id + "#" + incarnations.incrementAndGet()))
            .handlerExecutor(handlers).retention(RETENTION).startTimeout(Duration.ofSeconds(60)).build();
        p.start();
        return p;
    }

    /** Starts one transaction over 2–4 random participants, keeping at most four of this coordinator's in flight. */
    private static boolean startOne(TransactionCoordinator coordinator, String name, Semaphore inFlight, TransactionHistory history)
        throws InterruptedException {
        inFlight.acquire();
        List<String> ids = new ArrayList<>(List.of("p0", "p1", "p2", "p3", "p4"));
        java.util.Collections.shuffle(ids);
        List<String> chosen = ids.subList(0, 2 + ThreadLocalRandom.current().nextInt(3));
        long t0 = System.nanoTime();
        PendingTransaction tx;
        try {
            tx = coordinator.start(chosen, name.getBytes(java.nio.charset.StandardCharsets.UTF_8), DEADLINE);
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

    /**
     * The checker can fail: a site that acts on its own tally — commit when it has seen every
     * vote commit, abort when its own deadline (on a clock that runs a fifth fast) passes with
     * votes missing — instead of on the decision node, run beside honest participants whose votes
     * race the deadline, must be caught.
     */
    @Test
    void aSiteActingOnItsOwnTallyIsCaught() throws Exception {
        String folder = "/chaos/tx-canary";
        TransactionHistory history = new TransactionHistory();
        List<AutoCloseable> open = new ArrayList<>();
        Duration deadline = Duration.ofSeconds(1);
        ExecutorService handlers = Executors.newCachedThreadPool();
        try {
            BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
            open.add(client);
            for (String id : List.of("a", "b")) {
                TransactionParticipant p = TransactionParticipant.builder(client, folder, id, new Recorded(history, id, id) {
                    @Override
                    public Vote prepare(Transaction tx) throws Exception {
                        if (id.equals("b")) {
                            // b's vote lands around the deadline: the race an own tally gets wrong
                            TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextLong(500, 1300));
                        }
                        history.voted(tx.id(), tx.participants(), id, true);
                        return Vote.COMMIT;
                    }
                }).handlerExecutor(handlers).build();
                p.start();
                open.add(0, p);
            }
            // the canary votes through a real participant, but acts on what it tallies itself
            TransactionParticipant canary = TransactionParticipant.builder(client, folder, "canary", new TransactionHandler() {
                @Override
                public Vote prepare(Transaction tx) {
                    history.voted(tx.id(), tx.participants(), "canary", true);
                    return Vote.COMMIT;
                }

                @Override
                public void commit(Transaction tx) {
                }

                @Override
                public void abort(Transaction tx) {
                }
            }).build();
            canary.start();
            open.add(0, canary);
            TransactionCoordinator coordinator = TransactionCoordinator.builder(client, folder).build();
            TransactionFolder view = new TransactionFolder(client, folder);
            Map<String, Long> firstSeen = new HashMap<>();
            Map<String, Boolean> acted = new HashMap<>();
            Workers workers = new Workers();
            workers.start("coordinator", 1, i -> {
                PendingTransaction tx = coordinator.start(List.of("a", "b", "canary"), new byte[0], deadline);
                history.started(tx.id(), "coordinator", List.of("a", "b", "canary"), deadline, System.nanoTime());
                Decision d = tx.await(Duration.ofSeconds(10));
                if (d != null) {
                    history.reported(tx.id(), "coordinator", d.isCommit());
                }
                return true;
            });
            workers.start("canary-tally", 1, i -> {
                for (TransactionStatus s : view.transactions()) {
                    long seen = firstSeen.computeIfAbsent(s.id(), k -> System.nanoTime());
                    if (acted.containsKey(s.id())) {
                        continue;
                    }
                    boolean allCommit = s.votes().size() == 3 && !s.votes().containsValue(Vote.ABORT);
                    boolean ownDeadline = System.nanoTime() - seen > deadline.toNanos() * 4 / 5;
                    if (allCommit || s.votes().containsValue(Vote.ABORT) || ownDeadline) {
                        acted.put(s.id(), allCommit);
                        history.told(s.id(), s.transaction().participants(), "canary", "canary", allCommit);
                    }
                }
                workers.pace(Duration.ofMillis(10));
                return false;
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> !history.checkAtomicCommitment().isOk());
            workers.stop();
            List<String> caught = history.checkAtomicCommitment().violations();
            System.out.println("[transaction canary] the checker caught " + caught.size() + " disagreement(s), e.g. " + caught.get(0));
            assertThat(caught).as("a site acting on its own tally must be caught").isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("canary"));
        } finally {
            for (AutoCloseable c : open) {
                c.close();
            }
            handlers.shutdownNow();
        }
    }
}

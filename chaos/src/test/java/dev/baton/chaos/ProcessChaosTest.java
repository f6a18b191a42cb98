package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientProcess;
import dev.baton.test.ClientProcess.Message;
import dev.baton.test.Nemesis;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.TestClients;
import dev.baton.test.history.ServerTruth;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The mutex with its holders in JVMs of their own, under the faults only a whole process
 * suffers: frozen with SIGSTOP past its session timeout (a long GC pause, a stopped VM), and
 * killed with SIGKILL. A process frozen while it holds cannot learn that its session ended and
 * the lock went to someone else; when it wakes it goes on writing. No lock can prevent that; the
 * fencing token does: a fenced store in this JVM refuses every write with a token older than
 * one it has accepted.
 *
 * <p>What is judged on Baton ({@link ProcessHistory}, against the servers' transaction logs):
 * mutual exclusion bounded as in the in-process chaos tests; every holder stops believing — by
 * the recipe's own loss signal or its release — within the STANDARD policy's 500 ms of the
 * servers deleting its node, or of its process being resumed if it was frozen then; and every
 * write the store refused came from a hold the servers had already ended (a refusal of a live
 * holder would mean a newer token was handed out while the old hold lived). The run must also
 * show the fence at work: a holder that woke from a pause past its session wrote with its old
 * token and was refused.
 */
class ProcessChaosTest {
    private static final String PATH = "/chaos/process-mutex";
    private static final Duration SESSION = Duration.ofSeconds(3);
    /**
     * Writes per hold, 20 ms apart: a hold of about 1.5 s, so that a pause landing in its first
     * two thirds leaves more than the 500 ms loss bound of it after the resume — the run goes on
     * until that has happened, and a worker whose loss signal never came would then believe past
     * the bound and fail the run, instead of finishing its batch in time.
     */
    private static final int WRITES_PER_HOLD = 75;
    private static final Duration BETWEEN_WRITES = Duration.ofMillis(20);
    private static final MutexWorker.Style[] PROCESS_STYLES = {
        MutexWorker.Style.FENCED, MutexWorker.Style.FENCED, MutexWorker.Style.CAREFUL};
    private static final int THREAD_WORKERS = 2;
    /**
     * How long a worker of the run waits in line: longer than a full turn of the queue (five holds
     * of about 1.6 s, one of them possibly a killed holder's node waiting for its session's expiry),
     * so that each worker takes the lock in its turn. With 2 s, a worker two places back gave its
     * place up and joined again at the back, again and again: once the faults were healed the
     * liveness check waited 16 s (seed 58718078043413) for a worker that kept losing its place
     * while two others took the lock three times each.
     */
    private static final Duration ACQUIRE_WAIT = Duration.ofSeconds(15);
    private static final List<Fault> FAULTS =
        List.of(Fault.PAUSE_PROCESS, Fault.KILL_PROCESS, Fault.KILL_LEADER, Fault.EXPIRE_SESSION);

    @BeforeAll
    static void unixOnly() {
        assumeTrue(ClientProcess.supported(), "client processes are paused with SIGSTOP/SIGCONT, which needs a Unix-like"
            + " system; this is " + System.getProperty("os.name"));
    }

    @Test
    void theMutexHoldsAcrossProcessesAndTheFenceRefusesEveryWriteOfAHolderThatWokeTooLate() throws Exception {
        long seed = ChaosRun.seed();
        Duration length = ChaosRun.duration();
        ProcessHistory history = new ProcessHistory();
        FencedStore store = new FencedStore();
        Nemesis.Report report = null;
        long began = System.nanoTime();
        Duration ran = Duration.ZERO;
        List<String> stuck = new ArrayList<>();
        List<String> surprises = new ArrayList<>();
        ProcessHistory.Judgement j;
        AtomicInteger expiries = new AtomicInteger();
        {
            // the module's shared three-server child-process ensemble: not closed here
            EmbeddedEnsemble ensemble = ChaosRun.childProcessEnsemble();
            try (ServerTruth truth = ServerTruth.watch(ensemble, List.of(PATH))) {
            List<ClientProcess> processes = new ArrayList<>();
            List<BatonClient> clients = new ArrayList<>();
            try {
                long starting = System.nanoTime();
                for (int i = 0; i < PROCESS_STYLES.length; i++) {
                    processes.add(worker("proc-" + i, ensemble.connectString(), PROCESS_STYLES[i], WRITES_PER_HOLD, SESSION,
                        ACQUIRE_WAIT, history::record, store));
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> history.count(ProcessHistory.ACQUIRED) >= 1);
                System.out.printf("[process-mutex] %d worker JVMs started and the first acquired in %.1f s%n",
                    processes.size(), (System.nanoTime() - starting) / 1e9);
                Workers threads = new Workers(ChaosRun.CONNECTION_TROUBLE);
                List<MutexWorker> inProcess = new ArrayList<>();
                for (int i = 0; i < THREAD_WORKERS; i++) {
                    clients.add(TestClients.started(ensemble.connectString(), SESSION));
                    inProcess.add(threadWorker("thread-" + i, clients.get(i), threads, history, store));
                }
                threads.start("thread", THREAD_WORKERS, i -> inProcess.get(i).step());
                try (Nemesis nemesis = Nemesis.builder(ensemble, seed).clients(clients).processes(processes)
                         .faults(FAULTS.get(0), FAULTS.subList(1, FAULTS.size()).toArray(Fault[]::new))
                         .atLeast(ChaosRun.PER_KIND)
                         // a pause that missed a fresh fenced hold (or whose holder's session
                         // outlived it) is tried again, instead of being left to the random draws
                         .insistOn(Fault.PAUSE_PROCESS, () -> fenceTested(history, store))
                         .onExpired(c -> expiries.incrementAndGet())
                         .pickProcess(random -> holderFirst(history, store, processes, random))
                         .quietBetween(Duration.ofMillis(300), Duration.ofMillis(1500))
                         .faultLength(Duration.ofMillis(500), Duration.ofMillis(2500))
                         .clientPause(SESSION.plusSeconds(2))
                         .log(line -> System.out.println("[process-mutex] " + line))
                         .build()) {
                    began = System.nanoTime();
                    nemesis.start();
                    runUntilCovered(nemesis, history, store, expiries, length, began);
                    report = nemesis.stop();
                    ran = Duration.ofNanos(System.nanoTime() - began);
                }
                stuck.addAll(actorsThatDoNotAcquireAgain(history, processes));
                threads.stop();
                surprises.addAll(threads.surprises());
            } finally {
                try {
                    stopAll(processes);
                } finally {
                    clients.forEach(BatonClient::close);
                }
            }
            // every worker has stopped: the logs now hold every end of every hold's node
            truth.settle();
            j = history.judge(store, truth, LockChaosTest.standard(1), report == null ? 0
                : report.counts().getOrDefault(Fault.KILL_PROCESS, 0));
            }
        }
        List<Duration> startUps = history.startUps().stream().sorted().toList();
        System.out.printf("[process-mutex] worker JVM start to a connected client: %d starts, median %d ms, max %d ms%n",
            startUps.size(), startUps.get(startUps.size() / 2).toMillis(), startUps.get(startUps.size() - 1).toMillis());
        System.out.printf("[process-mutex] %s; latest loss signal %.0f ms after the servers' end (time paused not"
                + " counted), %d unjudged%n", j.exclusion(), j.latestSignalMillis(), j.unjudgedSignals());
        System.out.printf("[process-mutex] fenced store: %d writes, %d accepted, %d refused (%d of a hold the servers still"
                + " kept); %d refused writes by a holder that woke from a pause during its hold; %d pauses overlapped a newer"
                + " holder; per actor %s; worker errors %s%n",
            j.writes(), j.accepted(), j.refused(), j.refusedWhileHeld(), j.staleAfterPause(), j.pausedOverlaps(),
            store.perActor(), j.errors());
        Map<String, List<String>> checks = new LinkedHashMap<>(j.checks());
        checks.put("liveness after healing", stuck);
        checks.put("no undocumented exceptions", surprises);
        ChaosRun.verdict("process-mutex", seed, ran, FAULTS, report, j.holds(), checks, List.of(j.exclusion()));
        // what Baton could get wrong about the fence: a newer token while the old holder's node lived
        assertThat(j.refusedWhileHeld()).as("refused writes of a hold whose node the servers still kept").isZero();
        assertThat(j.staleAfterPause()).as("stale writes by a holder that woke from a pause past its session").isPositive();
    }

    /**
     * Kills and closes every worker, even past one whose close throws (a worker that crashed: its
     * exit status and the end of its log), so that none runs on; then throws the first failure,
     * the others suppressed.
     */
    static void stopAll(List<ClientProcess> processes) throws InterruptedException {
        IllegalStateException first = null;
        for (ClientProcess p : processes) {
            try {
                p.kill(); // stamped, so that a worker's last hold ends in the history
                p.close();
            } catch (IllegalStateException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Runs the faults for {@code length}, and on until the run has what it is for: a holder that
     * wrote after waking from a pause past its session, and went on writing for more than the loss
     * bound after its resume (see {@link ProcessHistory#wroteOnPastTheBound}), a killed process, and
     * every fault kind
     * {@link ChaosRun#PER_KIND} times ({@link Nemesis#minimumMet()}: the nemesis injects each kind
     * once per round first, in a seeded order, then draws at random; CI at 6bb06a6 stopped with the
     * first round's last kind, KILL_LEADER, not yet injected, seed 32852611918992). The nemesis
     * injects PAUSE_PROCESS again and again after its first round until the fence has been put to
     * the test ({@link #fenceTested}), each on a fresh fenced hold ({@link #holderFirst}). Gives up
     * 45 s later; the verdict's coverage checks then fail.
     */
    private static void runUntilCovered(Nemesis nemesis, ProcessHistory history, FencedStore store,
                                        AtomicInteger expiries, Duration length, long began) {
        try {
            await().atMost(length.plusSeconds(45)).pollInterval(Duration.ofMillis(500)).until(() -> nemesis.failed()
                || System.nanoTime() - began >= length.toNanos() && nemesis.minimumMet() && expiries.get() >= ChaosRun.PER_KIND
                && history.count(ClientProcess.KILLED) >= ChaosRun.PER_KIND && fenceTested(history, store));
        } catch (ConditionTimeoutException e) {
            System.out.println("[process-mutex] the run did not cover every process fault in time; see the coverage check");
        }
    }

    /**
     * Once the faults are healed every worker must take the lock again. Returns the workers that
     * did not within 30 s.
     */
    private static List<String> actorsThatDoNotAcquireAgain(ProcessHistory history, List<ClientProcess> processes) {
        Instant healed = Instant.now();
        List<String> actors = new ArrayList<>();
        processes.forEach(p -> actors.add(p.name()));
        for (int i = 0; i < THREAD_WORKERS; i++) {
            actors.add("thread-" + i);
        }
        java.util.function.Supplier<List<String>> waiting = () -> actors.stream()
            .filter(a -> history.marks().stream().noneMatch(m -> m.actor().equals(a) && m.kind().equals(ProcessHistory.ACQUIRED)
                && m.time().isAfter(healed)))
            .toList();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> waiting.get().isEmpty());
        } catch (ConditionTimeoutException e) {
            return waiting.get().stream().map(a -> a + " did not take the lock within 30 s of the faults being healed").toList();
        }
        return List.of();
    }

    /**
     * How old a fenced hold may be when a process fault picks its holder before the fence has been
     * put to the test: a hold is about 1.5 s of writes, so a pause that lands within this of its
     * acquisition leaves more than a second of them for after the resume — well past the loss
     * bound the coverage check asks the writes to outlast.
     */
    private static final Duration FRESH_HOLD = Duration.ofMillis(400);
    /**
     * How long the picker waits for such a hold: a full turn of the mutex's queue (five workers of
     * about 1.6 s each, one of them possibly a killed holder whose node waits for its session's
     * expiry) gives each fenced process its turn, with room to spare on a loaded machine.
     */
    private static final Duration FRESH_HOLD_WAIT = Duration.ofSeconds(15);

    /**
     * Whether the run has put the fence to the test: a holder woken from a pause past its session
     * wrote with its old token and was refused, and wrote on past the loss bound (see
     * {@link ProcessHistory#wroteOnPastTheBound}). The nemesis insists on PAUSE_PROCESS until it has.
     */
    private static boolean fenceTested(ProcessHistory history, FencedStore store) {
        return history.staleAfterPause(store) > 0 && history.wroteOnPastTheBound(store, ChaosRun.DELIVERY_MARGIN);
    }

    /**
     * The process a process fault hits. Until the fence has been put to the test
     * ({@link #fenceTested}): a {@link MutexWorker.Style#FENCED} process within
     * {@link #FRESH_HOLD} of its acquisition, waiting up to {@link #FRESH_HOLD_WAIT} for one.
     * Caught so early, it has most of its batch left when it wakes, and writes on past the loss
     * bound with its stale token. A {@code CAREFUL} process is never picked then: it checks its
     * hold before each write, so its pauses can never put the fence to the test (CI run of this
     * branch, seed 36406423837045: all three pauses of the run froze the careful worker). Before,
     * the picker waited 3 s for any fenced holder and else froze a process at random, most often
     * one that did not hold: seed 74052803206416 spent its one pause on a process restarted 3 s
     * earlier, the random draws after the first round never came back to PAUSE_PROCESS, and the
     * run failed its coverage check 45 s after its length. Once the fence has been tested: any
     * process, the holder if one holds within 3 s.
     */
    private static int holderFirst(ProcessHistory history, FencedStore store, List<ClientProcess> processes,
                                   java.util.Random random) {
        boolean fenceTested = fenceTested(history, store);
        if (!fenceTested) {
            Optional<Integer> fresh = freshFencedHolder(history, store, processes);
            if (fresh.isPresent()) {
                return fresh.get();
            }
            fenceTested = fenceTested(history, store);
        }
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            if (fenceTested || PROCESS_STYLES[i] == MutexWorker.Style.FENCED) {
                candidates.add(i);
            }
        }
        java.util.function.IntSupplier holding = () -> {
            String holder = history.holder();
            for (int i : candidates) {
                if (processes.get(i).name().equals(holder)) {
                    return i;
                }
            }
            return -1;
        };
        try {
            return await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(10))
                .until(holding::getAsInt, i -> i >= 0);
        } catch (ConditionTimeoutException nobody) {
            return candidates.get(random.nextInt(candidates.size()));
        }
    }

    /**
     * Waits up to {@link #FRESH_HOLD_WAIT} for a fenced process to hold a hold that began within
     * {@link #FRESH_HOLD}; empty if none did, or if meanwhile the fence was put to the test
     * (looked at twice a second: judging the store is not free).
     */
    private static Optional<Integer> freshFencedHolder(ProcessHistory history, FencedStore store,
                                                       List<ClientProcess> processes) {
        long[] lastLook = {System.nanoTime()};
        try {
            return await().atMost(FRESH_HOLD_WAIT).pollInterval(Duration.ofMillis(10)).until(() -> {
                String holder = history.holderAcquiredSince(Instant.now().minus(FRESH_HOLD));
                for (int i = 0; i < processes.size(); i++) {
                    if (PROCESS_STYLES[i] == MutexWorker.Style.FENCED && processes.get(i).name().equals(holder)) {
                        return Optional.of(i);
                    }
                }
                if (System.nanoTime() - lastLook[0] > Duration.ofMillis(500).toNanos()) {
                    lastLook[0] = System.nanoTime();
                    if (fenceTested(history, store)) {
                        return Optional.<Integer>empty();
                    }
                }
                return null;
            }, found -> found != null);
        } catch (ConditionTimeoutException none) {
            System.out.println("[process-mutex] no fenced process began a hold within " + FRESH_HOLD_WAIT.toSeconds()
                + " s: the process fault goes to another");
            return Optional.empty();
        }
    }

    /**
     * A SIGKILLed holder sends nothing: its node stays until the servers expire its session, and
     * then the next in line takes the lock. Bound: the session timeout, plus one server tick (the
     * servers check expiry once a tick), plus 3 s for the waiter to hear, acquire and report across
     * JVMs on a loaded 2-core machine. Generous, and still meaningful: a waiter that missed the
     * deletion would wait for ever, and one that noticed only by polling or by its own session's
     * timeout would take longer.
     */
    @Test
    void aKilledHoldersNodeGoesWithItsSessionAndTheNextWorkerAcquires() throws Exception {
        Duration session = Duration.ofSeconds(2);
        Duration tick = Duration.ofMillis(500);
        Duration bound = session.plus(tick).plusSeconds(3);
        List<Message> messages = new CopyOnWriteArrayList<>();
        FencedStore store = new FencedStore();
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(1).tickTime(tick).build()) {
            ensemble.start();
            try (BatonClient observer = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
                 ClientProcess a = worker("holder-a", ensemble.connectString(), MutexWorker.Style.FENCED, 1_000_000, session,
                     Duration.ofSeconds(2), messages::add, store);
                 ClientProcess b = worker("holder-b", ensemble.connectString(), MutexWorker.Style.FENCED, 1_000_000, session,
                     Duration.ofSeconds(2), messages::add, store)) {
                Message first = awaitMessage(messages, m -> m.kind().equals(ProcessHistory.ACQUIRED));
                ClientProcess holder = first.process().equals(a.name()) ? a : b;
                ClientProcess next = holder == a ? b : a;
                String node = first.field(1);
                await().atMost(Duration.ofSeconds(30)).until(() -> observer.getChildren().forPath(PATH).size() == 2);

                holder.kill();
                Instant killed = awaitMessage(messages, m -> m.kind().equals(ClientProcess.KILLED)).time();
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                    .until(() -> observer.checkExists().forPath(node) == null);
                Duration nodeGone = Duration.between(killed, Instant.now());
                Message taken = awaitMessage(messages, m -> m.process().equals(next.name())
                    && m.kind().equals(ProcessHistory.ACQUIRED));
                Duration acquired = Duration.between(killed, taken.time());

                System.out.printf("[kill liveness] %s killed holding %s; its node went %d ms later, %s acquired %d ms after"
                    + " the kill (bound %d ms = session %d + tick %d + 3000)%n", holder.name(), node, nodeGone.toMillis(),
                    next.name(), acquired.toMillis(), bound.toMillis(), session.toMillis(), tick.toMillis());
                assertThat(taken.longField(0)).as("the next holder's token").isGreaterThan(first.longField(0));
                assertThat(nodeGone).as("the killed holder's node lasts no longer than its session").isLessThanOrEqualTo(bound);
                assertThat(acquired).as("the next worker acquires once the session is gone").isLessThanOrEqualTo(bound);
            }
        }
    }

    private static Message awaitMessage(List<Message> messages, Predicate<Message> what) {
        return await().atMost(Duration.ofSeconds(60))
            .until(() -> messages.stream().filter(what).findFirst(), Optional::isPresent).get();
    }

    /** A {@link MutexWorkerMain} in a child JVM, writing to {@code store} through the line protocol. */
    private static ClientProcess worker(String name, String connect, MutexWorker.Style style, int writes, Duration session,
                                        Duration wait, Consumer<Message> onMessage, FencedStore store)
        throws java.io.IOException {
        return ClientProcess.builder(name, MutexWorkerMain.class)
            .args(connect, PATH, style.name(), Integer.toString(writes), Long.toString(BETWEEN_WRITES.toMillis()),
                Long.toString(session.toMillis()), Long.toString(wait.toMillis()))
            .onMessage(onMessage)
            .onRequest(m -> store.write(m.process(), m.longField(0), m.time()) ? "accepted" : "refused")
            .log(ChaosRun.reports().resolve("process-mutex-" + name + ".log"))
            .start();
    }

    /** A fenced writer on a thread of this JVM, on Baton's mutex, recording and writing directly. */
    private static MutexWorker threadWorker(String actor, BatonClient client, Workers threads, ProcessHistory history,
                                            FencedStore store) {
        return threadWorker(actor, client, new dev.baton.recipes.lock.InterProcessMutex(client, PATH)::acquireLease,
            WRITES_PER_HOLD, ACQUIRE_WAIT, threads, history, store);
    }

    /** A fenced writer on a thread of this JVM, on any mutex (a canary passes a broken one). */
    static MutexWorker threadWorker(String actor, BatonClient client, LockChaosTest.Acquirer mutex, int writes, Duration wait,
                                    Workers threads, ProcessHistory history, FencedStore store) {
        MutexWorker.Sink sink = new MutexWorker.Sink() {
            @Override
            public void report(String kind, long value, String... more) {
                history.record(actor, Instant.now(), kind, value, more);
            }

            @Override
            public boolean write(long token) {
                return store.write(actor, token, Instant.now());
            }
        };
        return new MutexWorker(client, mutex, MutexWorker.Style.FENCED, writes, BETWEEN_WRITES, sink, threads::pace, wait);
    }
}

package dev.baton.chaos;

import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.recipes.lock.InterProcessMultiLock;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.InterProcessSemaphoreMutex;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.LockListener;
import dev.baton.recipes.lock.WriteLock;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.BoundedExclusion;
import dev.baton.test.history.Event;
import dev.baton.test.history.History;
import dev.baton.test.history.Zxids;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Every lock recipe under faults, on one ensemble of child-process servers (KILL_LEADER is a
 * SIGKILL, PAUSE_SERVER a SIGSTOP) with proxies between them ({@link ChaosRun#partitionableEnsemble()}):
 * the mutex also runs through a follower cut off for longer than the session timeout, and in the
 * soak every lock runs under the three partitions. Five workers acquire, write to a fenced store, and release;
 * {@link BoundedExclusion} judges their beliefs against the servers' record of the lock nodes. In
 * CI the semaphore, the semaphore mutex, the multi-lock, ZooKeeper's WriteLock and the read/write
 * lock share one run (side by side, each judged on its own); the soak also runs each alone.
 */
@Paired
class LockChaosTest {
    /** Faults for the variants of a recipe already run under all eight: a leader SIGKILL, and the faults that end sessions. */
    static final Fault[] SESSION_FAULTS = {Fault.KILL_LEADER, Fault.CUT_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION};

    private static EmbeddedEnsemble ensemble;

    /** The module's shared ensemble with peer proxies (see {@link ChaosRun#partitionableEnsemble()}): not closed here. */
    @BeforeAll
    static void start() {
        ensemble = ChaosRun.partitionableEnsemble();
    }

    /** Acquires a hold for one worker: null on timeout. */
    @FunctionalInterface
    interface Acquirer {
        Grant acquire(Duration timeout) throws InterruptedException;
    }

    /** A resource that remembers the largest token it saw and refuses smaller ones; every write goes in the history. */
    static final class FencedStore {
        private final History history;
        private long highest = Long.MIN_VALUE;
        long accepted;
        long refused;

        FencedStore(History history) {
            this.history = history;
        }

        synchronized boolean write(String actor, long token) {
            boolean ok = token >= highest;
            if (ok) {
                highest = token;
                accepted++;
            } else {
                refused++;
            }
            history.fencedWrite(actor, "store", token, ok);
            return ok;
        }

        String note() {
            return "fenced store: " + accepted + " writes accepted, " + refused + " stale writes refused";
        }
    }

    /**
     * The lock workload: each worker acquires (2 s timeout), writes to the fenced store, holds for
     * up to {@code holdMillis}, releases. Judged under {@code rules}; returns the judgement.
     */
    static BoundedExclusion.Result lockWorkload(ChaosRun run, String key, java.util.function.IntFunction<Acquirer> acquirers,
                                                BoundedExclusion.Rules rules, int holdMillis) throws Exception {
        return lockWorkload(run, key, acquirers, rules, 0, holdMillis);
    }

    /** {@link #lockWorkload(ChaosRun, String, java.util.function.IntFunction, BoundedExclusion.Rules, int)} with holds of {@code minHoldMillis} at least. */
    static BoundedExclusion.Result lockWorkload(ChaosRun run, String key, java.util.function.IntFunction<Acquirer> acquirers,
                                                BoundedExclusion.Rules rules, int minHoldMillis, int holdMillis) throws Exception {
        Started started = startLockWorkload(run, "locker", key, acquirers, rules, minHoldMillis, holdMillis);
        run.runFaults();
        BoundedExclusion.Result result = started.judge(run);
        run.verdict(started.history().count(Event.Op.ACQUIRED), Map.of(rules.policy() + " exclusion", result.violations()),
            result.summary(), started.store().note());
        return result;
    }

    /** A lock workload whose workers are running: {@link #judge} it once the run's faults are healed. */
    record Started(History history, FencedStore store, BoundedExclusion.Rules rules) {
        BoundedExclusion.Result judge(ChaosRun run) {
            return BoundedExclusion.check(history.events(), run.truth(), rules);
        }
    }

    /**
     * Starts the lock workload (one worker per client, named {@code name-<i>}): each acquires (2 s
     * timeout), writes to its own fenced store, holds for {@code minHoldMillis} to
     * {@code holdMillis}, releases.
     */
    static Started startLockWorkload(ChaosRun run, String name, String key, java.util.function.IntFunction<Acquirer> acquirers,
                                     BoundedExclusion.Rules rules, int minHoldMillis, int holdMillis) {
        History history = new History();
        FencedStore store = new FencedStore(history);
        Holds holds = new Holds(history, key, run.clients.size());
        List<Acquirer> acquirer = new ArrayList<>();
        for (int i = 0; i < run.clients.size(); i++) {
            acquirer.add(acquirers.apply(i));
        }
        run.workers.start(name, run.clients.size(), i -> {
            Grant grant = acquirer.get(i).acquire(Duration.ofSeconds(2));
            if (grant == null) {
                return false;
            }
            holds.acquired(i, grant, run.client(i), false);
            store.write(Holds.actor(i), grant.fencingToken());
            run.workers.pace(Duration.ofMillis(ThreadLocalRandom.current().nextInt(minHoldMillis, holdMillis + 1)));
            holds.release(i, grant);
            return true;
        });
        return new Started(history, store, rules);
    }

    static BoundedExclusion.Rules standard(int limit) {
        return new BoundedExclusion.Rules(limit, ChaosRun.DELIVERY_MARGIN, "STANDARD");
    }

    /** The eight in-JVM faults, and a follower cut off (in the soak, all three partitions). */
    @Test
    void theMutexUnderEveryFault() throws Exception {
        String path = "/chaos/mutex";
        try (ChaosRun run = ChaosRun.builder("mutex", ensemble).faults(Fault.KILL_LEADER, Fault.RESTART_SERVER,
            Fault.LOSE_QUORUM, Fault.PAUSE_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT,
            Fault.EXPIRE_SESSION, Fault.ISOLATE_FOLLOWER).watch(path).documented(OwnershipLostException.class).build()) {
            lockWorkload(run, path, i -> new InterProcessMutex(run.client(i), path)::acquireLease, standard(1), 20);
        }
    }

    @Test
    void theMutexUnderTheSessionOnlyPolicyKeepsItsDocumentedBound() throws Exception {
        String path = "/chaos/mutex-session-only";
        try (ChaosRun run = ChaosRun.builder("mutex-session-only", ensemble).policy(ErrorPolicy.SESSION_ONLY)
            .faults(SESSION_FAULTS).watch(path).documented(OwnershipLostException.class).build()) {
            lockWorkload(run, path, i -> new InterProcessMutex(run.client(i), path)::acquireLease,
                new BoundedExclusion.Rules(1, ChaosRun.SESSION_ONLY_BOUND, "SESSION_ONLY"), 20);
        }
    }

    /**
     * The semaphore (2 leases), the semaphore mutex, the multi-lock (2 paths), ZooKeeper's WriteLock,
     * the read/write lock ({@link RwLockChaosTest}) and the mutex in the {@code SharedTicket} mode
     * ({@link SharedTicketChaos}: three threads on each client) side by side under one nemesis: each with
     * its own workers on the five clients, its own history (and fenced store, but the read/write
     * lock) and {@link BoundedExclusion} judgement, one verdict line each. Every fault of the run
     * reaches all five (a server fault directly, a client fault through the client each runs a
     * worker on), at the cost of one schedule instead of five: the union of their faults
     * ({@link #LOCK_FORMS_FAULTS}). Alone in the soak ({@code -Pchaos-soak}) as well.
     */
    @Test
    void theLockFormsSideBySide() throws Exception {
        try (ChaosRun run = ChaosRun.builder("lock-forms", ensemble).faults(LOCK_FORMS_FAULTS)
            .watch("/chaos/semaphore", "/chaos/semaphore-mutex", "/chaos/multi", WRITE_LOCK, RwLockChaosTest.PATH,
                SharedTicketChaos.PATH)
            .documented(OwnershipLostException.class).build()) {
            Map<String, Started> started = new java.util.LinkedHashMap<>();
            started.put("semaphore", startSemaphore(run));
            started.put("semaphore-mutex", startSemaphoreMutex(run));
            started.put("multi-lock", startMultiLock(run));
            started.put("write-lock", startWriteLock(run));
            RwLockChaosTest.Started rw = RwLockChaosTest.start(run, RwLockChaosTest.PATH,
                RwLockChaosTest.sides(run, RwLockChaosTest.PATH));
            SharedTicketChaos.Started shared = SharedTicketChaos.start(run);
            run.runFaults();
            Map<String, List<String>> checks = new java.util.LinkedHashMap<>();
            List<String> notes = new ArrayList<>();
            long acquired = 0;
            for (Map.Entry<String, Started> e : started.entrySet()) {
                BoundedExclusion.Result result = e.getValue().judge(run);
                checks.put(e.getKey() + ": " + e.getValue().rules().policy() + " exclusion", result.violations());
                notes.add(e.getKey() + ": " + e.getValue().history().count(Event.Op.ACQUIRED) + " acquisitions; "
                    + result.summary() + "; " + e.getValue().store().note());
                acquired += e.getValue().history().count(Event.Op.ACQUIRED);
            }
            BoundedExclusion.Result rwResult = rw.judge(run);
            checks.put("rwlock: readers-writers exclusion", rwResult.violations());
            notes.add("rwlock: " + rw.history().count(Event.Op.ACQUIRED) + " acquisitions; " + rwResult.summary());
            acquired += rw.history().count(Event.Op.ACQUIRED);
            long judging = System.nanoTime();
            SharedTicketJudge.Judgement sharedResult = shared.judge(run);
            checks.putAll(sharedResult.checks());
            notes.add("shared-mutex: " + shared.acquisitions() + " acquisitions; " + sharedResult.summary() + "; "
                + shared.store().note() + String.format(" (judged in %.0f ms)", (System.nanoTime() - judging) / 1e6));
            acquired += shared.acquisitions();
            run.verdict(acquired, checks, notes.toArray(String[]::new));
        }
    }

    /**
     * The side-by-side run's faults: the semaphore's five ({@link #SEMAPHORE_FAULTS}, a superset of
     * the WriteLock's, the semaphore mutex's and the multi-lock's) and the read/write lock's
     * ({@link RwLockChaosTest#FAULTS}: a server pause and a delayed client more).
     */
    static final Fault[] LOCK_FORMS_FAULTS = {Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.PAUSE_SERVER, Fault.CUT_CLIENT,
        Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION};

    /** The semaphore's faults: the session faults and a server restart. */
    static final Fault[] SEMAPHORE_FAULTS = {Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.CUT_CLIENT, Fault.PAUSE_CLIENT,
        Fault.EXPIRE_SESSION};

    private static Started startSemaphore(ChaosRun run) {
        String path = "/chaos/semaphore";
        return startLockWorkload(run, "semaphore", path, i -> {
            InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(run.client(i), path, 2);
            return semaphore::acquire;
        }, standard(2), 0, 30);
    }

    private static Started startSemaphoreMutex(ChaosRun run) {
        String path = "/chaos/semaphore-mutex";
        return startLockWorkload(run, "semaphore-mutex", path,
            i -> new InterProcessSemaphoreMutex(run.client(i), path)::acquireLease, standard(1), 0, 20);
    }

    private static Started startMultiLock(ChaosRun run) {
        List<String> paths = List.of("/chaos/multi/a", "/chaos/multi/b");
        return startLockWorkload(run, "multi-lock", "/chaos/multi",
            i -> new InterProcessMultiLock(run.client(i), paths)::acquireLease, standard(1), 0, 20);
    }

    /** Soak only ({@code -Pchaos-soak}): in CI the side-by-side run covers it. */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void aSemaphoreNeverGrantsMoreLeasesThanItHas() throws Exception {
        alone("semaphore", "/chaos/semaphore", LockChaosTest::startSemaphore);
    }

    /** Soak only ({@code -Pchaos-soak}): in CI the side-by-side run covers it. */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void theSemaphoreMutex() throws Exception {
        alone("semaphore-mutex", "/chaos/semaphore-mutex", LockChaosTest::startSemaphoreMutex);
    }

    /**
     * The mutex in the {@code SharedTicket} mode alone, under every fault the mutex gets (partitions
     * too). Soak only ({@code -Pchaos-soak}): in CI the side-by-side run covers it.
     */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void theSharedTicketMutexUnderEveryFault() throws Exception {
        try (ChaosRun run = ChaosRun.builder("shared-mutex", ensemble).faults(Fault.KILL_LEADER, Fault.RESTART_SERVER,
            Fault.LOSE_QUORUM, Fault.PAUSE_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT,
            Fault.EXPIRE_SESSION, Fault.ISOLATE_FOLLOWER).watch(SharedTicketChaos.PATH)
            .documented(OwnershipLostException.class).build()) {
            SharedTicketChaos.Started started = SharedTicketChaos.start(run);
            run.runFaults();
            SharedTicketJudge.Judgement judged = started.judge(run);
            run.verdict(started.acquisitions(), judged.checks(), judged.summary(), started.store().note());
        }
    }

    /** Soak only ({@code -Pchaos-soak}): in CI the side-by-side run covers it. */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void theMultiLock() throws Exception {
        alone("multi-lock", "/chaos/multi", LockChaosTest::startMultiLock);
    }

    private static void alone(String recipe, String folder, java.util.function.Function<ChaosRun, Started> workload)
        throws Exception {
        try (ChaosRun run = ChaosRun.builder(recipe, ensemble).watch(folder).documented(OwnershipLostException.class).build()) {
            Started started = workload.apply(run);
            run.runFaults();
            BoundedExclusion.Result result = started.judge(run);
            run.verdict(started.history().count(Event.Op.ACQUIRED), Map.of(started.rules().policy() + " exclusion",
                result.violations()), result.summary(), started.store().note());
        }
    }

    /**
     * ZooKeeper's WriteLock API: lock() answers at once, the listener hears lockAcquired and
     * lockReleased (also on loss). Soak only ({@code -Pchaos-soak}): in CI it runs beside the
     * other lock forms.
     */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void zooKeepersWriteLock() throws Exception {
        try (ChaosRun run = ChaosRun.builder("write-lock", ensemble).faults(SESSION_FAULTS).watch(WRITE_LOCK).build()) {
            Started started = startWriteLock(run);
            run.runFaults();
            BoundedExclusion.Result result = started.judge(run);
            run.verdict(started.history().count(Event.Op.ACQUIRED), Map.of("STANDARD exclusion", result.violations()),
                result.summary(), started.store().note());
        }
    }

    private static final String WRITE_LOCK = "/chaos/write-lock";

    /**
     * Starts five WriteLock writers (workers {@code writer-<i>}, one per client). An
     * {@link OwnershipLostException} is not among WriteLock's documented failures: it fails the
     * run here even beside the other lock forms, whose run documents it.
     */
    private static Started startWriteLock(ChaosRun run) {
        History history = new History();
        FencedStore store = new FencedStore(history);
        Map<Integer, WriteLock> locks = new java.util.concurrent.ConcurrentHashMap<>();
        Map<Integer, Semaphore> acquired = new java.util.concurrent.ConcurrentHashMap<>();
        Map<Integer, AtomicBoolean> holding = new java.util.concurrent.ConcurrentHashMap<>();
        run.workers.start("writer", run.clients.size(), i -> {
            try {
                return writeLockStep(run, i, WRITE_LOCK, history, store, locks, acquired, holding);
            } catch (OwnershipLostException e) {
                throw new AssertionError("WriteLock threw an exception it does not document", e);
            }
        });
        return new Started(history, store, standard(1));
    }

    private static boolean writeLockStep(ChaosRun run, int i, String dir, History history, FencedStore store,
                                         Map<Integer, WriteLock> locks, Map<Integer, Semaphore> acquiredBy,
                                         Map<Integer, AtomicBoolean> holdingBy) throws InterruptedException {
        String actor = Holds.actor(i);
        AtomicBoolean holding = holdingBy.computeIfAbsent(i, k -> new AtomicBoolean());
        Semaphore acquired = acquiredBy.computeIfAbsent(i, k -> new Semaphore(0));
        WriteLock lock = locks.computeIfAbsent(i, k -> new WriteLock(run.client(i), dir, new LockListener() {
            @Override
            public void lockAcquired() {
                acquired.release();
            }

            @Override
            public void lockReleased() {
                // the hold ended: by our unlock (recorded before it) or by a loss, which this records
                if (holding.compareAndSet(true, false)) {
                    history.lost(actor, dir);
                }
            }
        }));
        acquired.drainPermits();
        boolean owner = lock.lock() || acquired.tryAcquire(2, TimeUnit.SECONDS);
        if (!owner || !lock.isOwner()) {
            lock.unlock();
            return false;
        }
        long token = lock.fencingToken();
        holding.set(true);
        history.acquired(actor, dir, token, Zxids.lastSeen(run.client(i)), List.of(lock.getId()), false);
        store.write(actor, token);
        run.workers.pace(Duration.ofMillis(ThreadLocalRandom.current().nextInt(21)));
        if (holding.compareAndSet(true, false)) {
            history.released(actor, dir);
        }
        lock.unlock();
        return true;
    }
}

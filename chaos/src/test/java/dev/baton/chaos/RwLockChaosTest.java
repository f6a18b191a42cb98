package dev.baton.chaos;

import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.BoundedExclusion;
import dev.baton.test.history.Event;
import dev.baton.test.history.History;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A read-mostly workload on one read/write lock under faults: never a writer with anyone else
 * inside. In CI it runs beside the other lock forms in {@link LockChaosTest}; alone in the soak.
 */
class RwLockChaosTest {
    private static EmbeddedEnsemble ensemble;

    /** The module's shared ensemble (see {@link ChaosRun#childProcessEnsemble()}): not closed here. */
    @BeforeAll
    static void start() {
        ensemble = ChaosRun.childProcessEnsemble();
    }

    /** Acquires one side for a worker: {@code write} says which; null on timeout. */
    @FunctionalInterface
    interface Sides {
        Grant acquire(int worker, boolean write, Duration timeout) throws InterruptedException;
    }

    /** The workload: one acquisition in five a write; every hold recorded shared (read) or exclusive (write). */
    static void rwWorkload(ChaosRun run, String path, Sides sides) throws Exception {
        Started started = start(run, path, sides);
        run.runFaults();
        BoundedExclusion.Result result = started.judge(run);
        run.verdict(started.history().count(Event.Op.ACQUIRED), Map.of("readers-writers exclusion", result.violations()),
            result.summary());
    }

    /** A read/write workload whose workers are running: {@link #judge} it once the run's faults are healed. */
    record Started(History history) {
        BoundedExclusion.Result judge(ChaosRun run) {
            return BoundedExclusion.check(history.events(), run.truth(),
                new BoundedExclusion.Rules(1, ChaosRun.DELIVERY_MARGIN, "STANDARD"));
        }
    }

    /** Starts {@link #rwWorkload}'s workers ({@code rw-<i>}, one per client). */
    static Started start(ChaosRun run, String path, Sides sides) {
        History history = new History();
        Holds holds = new Holds(history, path, run.clients.size());
        run.workers.start("rw", run.clients.size(), i -> {
            boolean write = ThreadLocalRandom.current().nextInt(5) == 0;
            Grant grant = sides.acquire(i, write, Duration.ofSeconds(2));
            if (grant == null) {
                return false;
            }
            holds.acquired(i, grant, run.client(i), !write);
            run.workers.pace(Duration.ofMillis(ThreadLocalRandom.current().nextInt(15)));
            holds.release(i, grant);
            return true;
        });
        return new Started(history);
    }

    /** The folder of the read/write lock scenario. */
    static final String PATH = "/chaos/rwlock";

    /** One {@link InterProcessReadWriteLock} on {@code path} per client of the run, as {@link Sides}. */
    static Sides sides(ChaosRun run, String path) {
        List<InterProcessReadWriteLock> locks = new ArrayList<>();
        for (int i = 0; i < run.clients.size(); i++) {
            locks.add(new InterProcessReadWriteLock(run.client(i), path));
        }
        return (i, write, timeout) -> write
            ? locks.get(i).writeLock().acquireLease(timeout) : locks.get(i).readLock().acquireLease(timeout);
    }

    /**
     * Soak only ({@code -Pchaos-soak}): in CI the read/write lock runs beside the other lock forms
     * ({@link LockChaosTest}), under these six faults and a server restart.
     */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void neverAWriterWithAnyoneElseInsideUnderFaults() throws Exception {
        try (ChaosRun run = ChaosRun.builder("rwlock", ensemble).faults(FAULTS).watch(PATH)
            .documented(OwnershipLostException.class).build()) {
            rwWorkload(run, PATH, sides(run, PATH));
        }
    }

    /** The read/write lock's faults. */
    static final Fault[] FAULTS = {Fault.KILL_LEADER, Fault.PAUSE_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT,
        Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION};
}

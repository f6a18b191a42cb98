package dev.baton.chaos;

import dev.baton.framework.contention.Grant;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.ReadersWriters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/** A read-mostly workload on one read/write lock under faults: never a writer with anyone else inside. */
@EnsembleTest(nodes = 3)
class RwLockChaosTest {
    EmbeddedEnsemble ensemble;

    @Test
    void neverAWriterWithAnyoneElseInsideUnderFaults() throws Exception {
        ReadersWriters history = new ReadersWriters();
        AtomicReferenceArray<ReadersWriters.Hold> holds = new AtomicReferenceArray<>(5);
        java.util.function.IntConsumer expired = c -> {
            ReadersWriters.Hold hold = holds.getAndSet(c, null);
            if (hold != null) {
                history.lost(hold);
            }
        };
        try (ChaosRun run = new ChaosRun("rwlock", ensemble, 5, Duration.ofSeconds(3), expired,
            Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT,
            Fault.EXPIRE_SESSION)) {
            List<InterProcessReadWriteLock> locks = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                locks.add(new InterProcessReadWriteLock(run.client(i), "/chaos/rwlock"));
            }
            Workers workers = new Workers();
            workers.start("rw", 5, i -> {
                boolean write = ThreadLocalRandom.current().nextInt(10) < 2;
                Grant grant = write
                    ? locks.get(i).writeLock().acquireLease(Duration.ofSeconds(2))
                    : locks.get(i).readLock().acquireLease(Duration.ofSeconds(2));
                if (grant == null) {
                    return false;
                }
                ReadersWriters.Hold hold;
                // one step of the history (it records under its own lock); see ChaosRun.beingExpired
                synchronized (history) {
                    hold = history.entered("worker-" + i, write ? ReadersWriters.Mode.WRITE : ReadersWriters.Mode.READ,
                        grant.fencingToken());
                    holds.set(i, hold);
                    if (run.beingExpired(i)) {
                        expired.accept(i);
                    }
                }
                grant.onLost(() -> {
                    if (holds.compareAndSet(i, hold, null)) {
                        history.lost(hold);
                    }
                });
                workers.pace(Duration.ofMillis(ThreadLocalRandom.current().nextInt(15)));
                if (holds.compareAndSet(i, hold, null)) {
                    history.exiting(hold);
                    try {
                        grant.release();
                    } catch (RuntimeException lostMeanwhile) {
                        // released first in the history; the loss came after
                    }
                } else {
                    grant.releaseQuietly(); // counted lost already; its node must not hold up the others
                }
                return true;
            });
            run.runFaults();
            workers.stop();
            run.verdict(history.entries(ReadersWriters.Mode.READ) + history.entries(ReadersWriters.Mode.WRITE), Map.of(
                "readers-writers exclusion", history.check().violations()));
        }
    }
}

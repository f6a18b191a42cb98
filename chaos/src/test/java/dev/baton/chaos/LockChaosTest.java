package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.Decision;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.Ticket;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.Lease;
import dev.baton.recipes.lock.LockLease;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.ServerMode;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.TestClients;
import dev.baton.test.history.History;
import dev.baton.test.history.MutualExclusion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Locks under faults, on servers that run as child processes so the nemesis can SIGKILL the
 * ZooKeeper leader and SIGSTOP a server. A holder counts until its hold was known lost: by its
 * own loss signal, or by the nemesis ending its session on the servers.
 */
class LockChaosTest {
    private static final Fault[] ALL = {Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.LOSE_QUORUM, Fault.PAUSE_SERVER,
        Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION};

    /** A resource that remembers the largest token it saw and refuses smaller ones. */
    static final class FencedStore {
        private long highest = Long.MIN_VALUE;
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong refused = new AtomicLong();

        synchronized boolean write(long token) {
            if (token < highest) {
                refused.incrementAndGet();
                return false;
            }
            highest = token;
            accepted.incrementAndGet();
            return true;
        }
    }

    @Test
    void theMutexNeverHasTwoHoldersAndTokensFenceStaleWriters() throws Exception {
        History history = new History();
        FencedStore store = new FencedStore();
        String path = "/chaos/mutex";
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).mode(ServerMode.CHILD_PROCESSES).build()) {
            ensemble.start();
            Holds[] holds = {new Holds(history, path, 5)};
            try (ChaosRun run = new ChaosRun("lock", ensemble, 5, Duration.ofSeconds(3), c -> holds[0].sessionExpired(c),
                ALL[0], java.util.Arrays.copyOfRange(ALL, 1, ALL.length))) {
                List<InterProcessMutex> mutexes = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    mutexes.add(new InterProcessMutex(run.client(i), path));
                }
                Workers workers = new Workers();
                workers.start("locker", 5, i -> {
                    LockLease lease = mutexes.get(i).acquireLease(Duration.ofSeconds(2));
                    if (lease == null) {
                        return false;
                    }
                    holds[0].acquired(i, lease, run::beingExpired);
                    store.write(lease.fencingToken());
                    workers.pace(Duration.ofMillis(ThreadLocalRandom.current().nextInt(20)));
                    holds[0].release(i, lease);
                    return true;
                });
                // the lock recipe's share of the run: two thirds here, one third for its semaphore
                run.runFaults(ChaosRun.duration().multipliedBy(2).dividedBy(3));
                workers.stop();
                System.out.println("[lock] fenced store: " + store.accepted + " writes accepted, " + store.refused + " stale writes refused");
                run.verdict(history.count(dev.baton.test.history.Event.Op.ACQUIRED), Map.of(
                    "mutual exclusion", MutualExclusion.check(history.events()).violations()));
            }
        }
    }

    @Test
    void aSemaphoreNeverGrantsMoreLeasesThanItHas() throws Exception {
        History history = new History();
        String path = "/chaos/semaphore";
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).build()) {
            ensemble.start();
            Holds[] holds = {new Holds(history, path, 5)};
            try (ChaosRun run = new ChaosRun("semaphore", ensemble, 5, Duration.ofSeconds(3), c -> holds[0].sessionExpired(c),
                Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT,
                Fault.EXPIRE_SESSION)) {
                List<InterProcessSemaphoreV2> semaphores = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    semaphores.add(new InterProcessSemaphoreV2(run.client(i), path, 2));
                }
                Workers workers = new Workers();
                workers.start("leaser", 5, i -> {
                    Lease lease = semaphores.get(i).acquire(Duration.ofSeconds(2));
                    if (lease == null) {
                        return false;
                    }
                    holds[0].acquired(i, lease, run::beingExpired);
                    workers.pace(Duration.ofMillis(ThreadLocalRandom.current().nextInt(30)));
                    holds[0].release(i, lease);
                    return true;
                });
                run.runFaults(ChaosRun.duration().dividedBy(3));
                workers.stop();
                run.verdict(history.count(dev.baton.test.history.Event.Op.ACQUIRED), Map.of(
                    "at most 2 lease holders", MutualExclusion.atMost(history.events(), 2).violations()));
            }
        }
    }

    /**
     * The checkers can fail: a deliberately broken lock — its rule lets the first two in line hold —
     * run by the same workload must be caught.
     */
    @Test
    void aBrokenLockThatLetsTwoHoldIsCaughtByTheChecker() throws Exception {
        History history = new History();
        String path = "/chaos/broken";
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(1).build()) {
            ensemble.start();
            List<BatonClient> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    clients.add(TestClients.started(ensemble.connectString(), Duration.ofSeconds(5)));
                }
                Workers workers = new Workers();
                workers.start("broken", 4, i -> {
                    Contention broken = Contention.of(clients.get(i), path, "lock-",
                        (line, mine) -> mine < 2 ? Decision.hold() : Decision.waitFor(line.get(mine - 2), false));
                    Ticket ticket = broken.acquireBlocking(new byte[0], Duration.ofSeconds(2));
                    if (ticket == null) {
                        return false;
                    }
                    history.acquired(Holds.actor(i), path, ticket.fencingToken());
                    workers.pace(Duration.ofMillis(5));
                    history.released(Holds.actor(i), path);
                    broken.release(ticket).get();
                    return true;
                });
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60))
                    .until(() -> MutualExclusion.check(history.events()).violations().size() >= 3);
                workers.stop();
                List<String> caught = MutualExclusion.check(history.events()).violations();
                System.out.println("[broken lock] the checker caught " + caught.size() + " violations, e.g. " + caught.get(0));
                assertThat(caught).as("the checker must catch a lock that lets two hold").isNotEmpty();
            } finally {
                clients.forEach(BatonClient::close);
            }
        }
    }
}

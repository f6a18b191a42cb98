package dev.baton.chaos;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.barrier.DistributedBarrier;
import dev.baton.recipes.barrier.DistributedCountDownLatch;
import dev.baton.recipes.barrier.DistributedDoubleBarrier;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.BarrierHistory;
import dev.baton.test.history.ServerTruth;
import dev.baton.test.history.Zxids;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Barriers under faults, on one child-process ensemble, judged against the servers' record of their nodes. */
class BarrierChaosTest {
    static final Fault[] FAULTS = {Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT,
        Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION};

    private static EmbeddedEnsemble ensemble;

    @BeforeAll
    static void start() {
        ensemble = ChaosRun.childProcessEnsemble();
    }

    @AfterAll
    static void stop() {
        ensemble.close();
    }

    /**
     * Five members cycle through a double barrier built for {@code barrierQty} members; a pass is
     * legitimate only if {@code judgedQty} member nodes existed at once between the passer's
     * node's creation and its pass. (The canary builds the barrier for fewer than it judges.)
     */
    static List<String> doubleBarrierWorkload(ChaosRun run, String path, int barrierQty, int judgedQty) throws Exception {
        BarrierHistory history = new BarrierHistory();
        List<DistributedDoubleBarrier> barriers = new ArrayList<>();
        for (int i = 0; i < run.clients.size(); i++) {
            barriers.add(new DistributedDoubleBarrier(run.client(i), path, barrierQty));
        }
        run.workers.start("member", run.clients.size(), i -> {
            String me = "m" + i;
            DistributedDoubleBarrier barrier = barriers.get(i);
            history.arrived(me);
            boolean in;
            try {
                in = barrier.enter(Duration.ofSeconds(3));
            } catch (RuntimeException e) {
                history.gaveUp(me);
                throw e;
            }
            if (!in) {
                history.gaveUp(me);
                return false;
            }
            history.passed(me, barrier.memberName(), Zxids.lastSeen(run.client(i)));
            history.leaving(me);
            barrier.leave(Duration.ofSeconds(3));
            return true;
        });
        run.runFaults();
        List<String> problems = history.checkAgainstServers(run.truth(), path, judgedQty);
        run.verdict(history.passes(), Map.of(judgedQty + " members present at once before each pass", problems));
        return problems;
    }

    @Test
    void nobodyPassesADoubleBarrierEarlyUnderFaults() throws Exception {
        String path = "/chaos/barrier";
        try (ChaosRun run = ChaosRun.builder("double-barrier", ensemble).faults(FAULTS).watch(path).build()) {
            doubleBarrierWorkload(run, path, 3, 3);
        }
    }

    /**
     * A controller sets and removes a barrier; four waiters wait on it. A waiter may pass only if
     * the barrier node was absent at some state of the servers between the start of its wait and
     * its pass.
     */
    @Test
    void nobodyPassesASetBarrier() throws Exception {
        String path = "/chaos/gate";
        try (ChaosRun run = ChaosRun.builder("barrier", ensemble).faults(LockChaosTest.SESSION_FAULTS).watch(path)
            .build()) {
            List<long[]> passes = new CopyOnWriteArrayList<>();
            run.workers.start("controller", 1, c -> {
                DistributedBarrier barrier = new DistributedBarrier(run.client(0), path);
                barrier.setBarrier();
                run.workers.pace(Duration.ofMillis(300));
                barrier.removeBarrier();
                run.workers.pace(Duration.ofMillis(300));
                return true;
            });
            run.workers.start("waiter", 4, w -> {
                BatonClient client = run.client(w + 1);
                // a read just before the wait makes the client's zxid the servers' state as the wait starts
                client.checkExists().forPath(path);
                long from = Zxids.lastSeen(client);
                if (!new DistributedBarrier(client, path).waitOnBarrier(Duration.ofSeconds(2))) {
                    return false;
                }
                passes.add(new long[] {from, Zxids.lastSeen(client), w});
                run.workers.pace(Duration.ofMillis(ThreadLocalRandom.current().nextInt(50)));
                return true;
            });
            run.runFaults();
            List<ServerTruth.Node> lives = run.truth().lives(path);
            List<String> problems = new ArrayList<>();
            for (long[] p : passes) {
                List<Long> candidates = new ArrayList<>(List.of(p[0]));
                lives.stream().filter(n -> n.deleted() && n.dzxid() > p[0] && n.dzxid() <= p[1])
                    .forEach(n -> candidates.add(n.dzxid()));
                boolean open = candidates.stream().anyMatch(z -> lives.stream().noneMatch(n -> n.existedAt(z)));
                if (!open) {
                    problems.add("waiter-" + p[2] + " passed (view zxid 0x" + Long.toHexString(p[1]) + ") though the barrier"
                        + " existed throughout its wait from zxid 0x" + Long.toHexString(p[0]));
                }
            }
            run.verdict(passes.size(), Map.of("no pass while the barrier stood", problems));
        }
    }

    /** How the latch workload's waiter waits: the recipe's {@code await}, or a canary's broken one. */
    @FunctionalInterface
    interface LatchAwait {
        boolean await(BatonClient client, Duration timeout) throws InterruptedException;
    }

    /**
     * A setter sets a count of 3 whenever the last generation is done; three counters count down;
     * a waiter awaits. Every generation's {@code done} must follow 3 count-downs of that
     * generation, and every wait that returns must have seen the latch at zero (see
     * {@link #latchViolations}).
     */
    @Test
    void aCountDownLatchOpensOnlyAtZero() throws Exception {
        String path = "/chaos/latch";
        try (ChaosRun run = ChaosRun.builder("count-down-latch", ensemble).faults(LockChaosTest.SESSION_FAULTS).watch(path)
            .build()) {
            latchWorkload(run, path, (client, timeout) -> new DistributedCountDownLatch(client, path).await(timeout));
        }
    }

    /** The latch workload on clients 0 (setter), 1-3 (counters) and 4 (waiter), judged by {@link #latchViolations}. */
    static List<String> latchWorkload(ChaosRun run, String path, LatchAwait await) throws Exception {
        List<long[]> waits = new CopyOnWriteArrayList<>();
        AtomicLong sets = new AtomicLong();
        run.workers.start("setter", 1, s -> {
            boolean set = new DistributedCountDownLatch(run.client(0), path).trySetCount(3);
            run.workers.pace(Duration.ofMillis(100));
            if (set) {
                sets.incrementAndGet();
            }
            return set;
        });
        run.workers.start("counter", 3, c -> {
            new DistributedCountDownLatch(run.client(c + 1), path).countDown();
            run.workers.pace(Duration.ofMillis(50 + ThreadLocalRandom.current().nextInt(250)));
            return true;
        });
        BatonClient waiter = run.client(4);
        run.workers.start("waiter", 1, w -> {
            // a read just before the wait makes the client's zxid the servers' state as the wait starts
            waiter.checkExists().forPath(path);
            long from = Zxids.lastSeen(waiter);
            if (!await.await(waiter, Duration.ofSeconds(2))) {
                return false;
            }
            waits.add(new long[] {from, Zxids.lastSeen(waiter)});
            run.workers.pace(Duration.ofMillis(50));
            return true;
        });
        run.runFaults();
        List<ServerTruth.Node> nodes = run.truth().nodes();
        List<String> problems = latchViolations(nodes, path, 3, waits);
        long done = nodes.stream().filter(n -> n.name().equals("done") && n.czxid() > 0).count();
        run.verdict(waits.size(), Map.of("opens only at zero", problems), sets.get() + " generations set, " + done
            + " done");
        return problems;
    }

    /**
     * The count-down latch's promises, judged against the servers' record of the nodes under
     * {@code path}: a generation's {@code done} is created only after {@code count} count-down
     * nodes of that generation; and a wait that returned (each {@code {from, view}}: the zxids
     * its client had seen just before the call and just after the return) saw the latch at zero
     * at some state of the servers between the two — the latch node did not exist (a latch never
     * set has count zero, docs/barriers.md), or the current generation's {@code done} existed.
     */
    static List<String> latchViolations(List<ServerTruth.Node> nodes, String path, int count, List<long[]> waits) {
        List<String> problems = new ArrayList<>();
        List<ServerTruth.Node> dones = nodes.stream().filter(n -> n.name().equals("done") && n.czxid() > 0).toList();
        for (ServerTruth.Node done : dones) {
            String generation = done.path().substring(0, done.path().lastIndexOf('/'));
            long counted = nodes.stream().filter(n -> n.path().startsWith(generation + "/") && n.name().contains("-c-")
                && n.czxid() > 0 && n.czxid() <= done.czxid()).count();
            if (counted < count) {
                problems.add(done.path() + " created at zxid 0x" + Long.toHexString(done.czxid()) + " after only "
                    + counted + " count-down(s) of its generation");
            }
        }
        List<ServerTruth.Node> generations = nodes.stream().filter(n -> n.path().startsWith(path + "/g-")
            && n.path().indexOf('/', path.length() + 1) < 0).toList();
        for (long[] wait : waits) {
            long from = wait[0];
            long view = wait[1];
            List<Long> states = new ArrayList<>(List.of(from));
            dones.stream().filter(d -> d.czxid() > from && d.czxid() <= view).forEach(d -> states.add(d.czxid()));
            if (states.stream().noneMatch(z -> latchAtZero(z, generations, dones))) {
                problems.add("a wait returned (view zxid 0x" + Long.toHexString(view) + ") though the latch was not at zero"
                    + " at any state since it started (zxid 0x" + Long.toHexString(from) + "); generations then "
                    + generations.stream().filter(g -> g.czxid() <= view && (!g.deleted() || g.dzxid() > from))
                    .map(g -> g.name() + " 0x" + Long.toHexString(g.czxid())).toList() + ", dones then "
                    + dones.stream().filter(d -> d.czxid() <= view && (!d.deleted() || d.dzxid() > from))
                    .map(d -> d.path() + " 0x" + Long.toHexString(d.czxid())).toList());
            }
        }
        return problems;
    }

    /** Whether the latch was at zero at {@code zxid}: never set by then, or its current generation done. */
    private static boolean latchAtZero(long zxid, List<ServerTruth.Node> generations, List<ServerTruth.Node> dones) {
        // the latch node and its first generation are created in one transaction, and each set
        // creates the next generation: the current one is the last created at or before zxid
        return generations.stream().filter(g -> g.czxid() > 0 && g.czxid() <= zxid)
            .max(java.util.Comparator.comparingLong(ServerTruth.Node::czxid))
            .map(current -> dones.stream().anyMatch(d -> d.path().equals(current.path() + "/done") && d.existedAt(zxid)))
            .orElse(true);
    }
}

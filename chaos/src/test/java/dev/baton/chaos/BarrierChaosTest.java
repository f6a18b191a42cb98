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
        try (ChaosRun run = ChaosRun.builder("barrier", ensemble).faults(LockChaosTest.SESSION_FAULTS).watch("/chaos")
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

    /**
     * A setter sets a count of 3 whenever the last generation is done; three counters count down;
     * a waiter awaits. Every generation's {@code done} must follow 3 count-downs of that
     * generation; every wait that returns must come after some {@code done}.
     */
    @Test
    void aCountDownLatchOpensOnlyAtZero() throws Exception {
        String path = "/chaos/latch";
        try (ChaosRun run = ChaosRun.builder("count-down-latch", ensemble).faults(LockChaosTest.SESSION_FAULTS).watch(path)
            .build()) {
            List<Long> waits = new CopyOnWriteArrayList<>();
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
            run.workers.start("waiter", 1, w -> {
                if (!new DistributedCountDownLatch(run.client(4), path).await(Duration.ofSeconds(2))) {
                    return false;
                }
                waits.add(Zxids.lastSeen(run.client(4)));
                run.workers.pace(Duration.ofMillis(50));
                return true;
            });
            run.runFaults();
            List<ServerTruth.Node> nodes = run.truth().nodes();
            List<String> problems = new ArrayList<>();
            List<ServerTruth.Node> dones = nodes.stream().filter(n -> n.name().equals("done") && n.czxid() > 0).toList();
            for (ServerTruth.Node done : dones) {
                String generation = done.path().substring(0, done.path().lastIndexOf('/'));
                long counted = nodes.stream().filter(n -> n.path().startsWith(generation + "/") && n.name().contains("-c-")
                    && n.czxid() > 0 && n.czxid() <= done.czxid()).count();
                if (counted < 3) {
                    problems.add(done.path() + " created at zxid 0x" + Long.toHexString(done.czxid()) + " after only "
                        + counted + " count-down(s) of its generation");
                }
            }
            for (long view : waits) {
                if (dones.stream().noneMatch(d -> d.czxid() <= view)) {
                    problems.add("a wait returned at view zxid 0x" + Long.toHexString(view) + " before any generation was done");
                }
            }
            run.verdict(waits.size(), Map.of("opens only at zero", problems), sets.get() + " generations set, "
                + dones.size() + " done");
        }
    }
}

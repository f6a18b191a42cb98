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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Barriers under faults, on one child-process ensemble, judged against the servers' record of their
 * nodes. In CI the double barrier, the set barrier and the count-down latch share one run (side by
 * side, each judged on its own); the soak also runs each alone.
 */
@Paired
class BarrierChaosTest {
    static final Fault[] FAULTS = {Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT,
        Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION};

    private static EmbeddedEnsemble ensemble;

    /** The module's shared ensemble (see {@link ChaosRun#childProcessEnsemble()}): not closed here. */
    @BeforeAll
    static void start() {
        ensemble = ChaosRun.childProcessEnsemble();
    }

    /**
     * Five members cycle through a double barrier built for {@code barrierQty} members; a pass is
     * legitimate only if {@code judgedQty} member nodes existed at once between the passer's
     * node's creation and its pass. (The canary builds the barrier for fewer than it judges.)
     */
    static List<String> doubleBarrierWorkload(ChaosRun run, String path, int barrierQty, int judgedQty) throws Exception {
        Started started = startDoubleBarrier(run, path, barrierQty, judgedQty);
        run.runFaults();
        Judged judged = started.judge(run);
        run.verdict(judged.operations(), Map.of(judged.check(), judged.problems()), judged.notes().toArray(String[]::new));
        return judged.problems();
    }

    /** A barrier workload whose workers are running: {@link #judge} it once the run's faults are healed. */
    @FunctionalInterface
    interface Started {
        Judged judge(ChaosRun run);
    }

    /** One workload's judgement: its operations, its check's name and problems, notes for the report. */
    record Judged(long operations, String check, List<String> problems, List<String> notes) {
    }

    /** Starts {@link #doubleBarrierWorkload}'s members (workers {@code member-<i>}, one per client). */
    static Started startDoubleBarrier(ChaosRun run, String path, int barrierQty, int judgedQty) {
        BarrierHistory history = new BarrierHistory();
        List<DistributedDoubleBarrier> barriers = new ArrayList<>();
        for (int i = 0; i < run.clients.size(); i++) {
            barriers.add(new DistributedDoubleBarrier(run.client(i), path, barrierQty));
        }
        run.workers.start("member", run.clients.size(), i -> {
            String me = "m" + i;
            DistributedDoubleBarrier barrier = barriers.get(i);
            // members come back after 0-300 ms, so who is present when a barrier opens varies: with
            // every member straight back, a third member's node was there by chance at each of 72
            // passes of the early-opening canary (citime2's full run, seed 37803752601535)
            run.workers.pace(Duration.ofMillis(java.util.concurrent.ThreadLocalRandom.current().nextInt(0, 301)));
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
        return r -> new Judged(history.passes(), judgedQty + " members present at once before each pass",
            history.checkAgainstServers(r.truth(), path, judgedQty), List.of());
    }

    /**
     * The double barrier, the set barrier and the count-down latch side by side under one nemesis,
     * with the double barrier's six faults (the set barrier and the latch alone have four of them):
     * each with its own workers on the five clients, its own record and check, one verdict. Every
     * fault of the run reaches all three (a server fault directly, a client fault through the
     * client each runs a worker on), at the cost of one schedule instead of three. Each also runs
     * alone in the soak ({@code -Pchaos-soak}).
     */
    @Test
    void theDoubleBarrierTheBarrierAndTheLatchSideBySide() throws Exception {
        try (ChaosRun run = ChaosRun.builder("barrier-forms", ensemble).faults(FAULTS)
            .watch(DOUBLE_BARRIER, GATE, LATCH).build()) {
            Map<String, Started> started = new LinkedHashMap<>();
            started.put("double-barrier", startDoubleBarrier(run, DOUBLE_BARRIER, 3, 3));
            started.put("barrier", startGate(run, GATE));
            started.put("count-down-latch", startLatch(run, LATCH,
                (client, timeout) -> new DistributedCountDownLatch(client, LATCH).await(timeout)));
            run.runFaults();
            Map<String, List<String>> checks = new LinkedHashMap<>();
            List<String> notes = new ArrayList<>();
            long operations = 0;
            for (Map.Entry<String, Started> e : started.entrySet()) {
                Judged judged = e.getValue().judge(run);
                checks.put(e.getKey() + ": " + judged.check(), judged.problems());
                notes.add(e.getKey() + ": " + judged.operations() + " operations"
                    + (judged.notes().isEmpty() ? "" : "; " + String.join("; ", judged.notes())));
                operations += judged.operations();
            }
            run.verdict(operations, checks, notes.toArray(String[]::new));
        }
    }

    private static final String DOUBLE_BARRIER = "/chaos/barrier";
    private static final String GATE = "/chaos/gate";
    private static final String LATCH = "/chaos/latch";

    /** Soak only ({@code -Pchaos-soak}): in CI the side-by-side run covers it. */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void nobodyPassesADoubleBarrierEarlyUnderFaults() throws Exception {
        try (ChaosRun run = ChaosRun.builder("double-barrier", ensemble).faults(FAULTS).watch(DOUBLE_BARRIER).build()) {
            doubleBarrierWorkload(run, DOUBLE_BARRIER, 3, 3);
        }
    }

    /**
     * A controller sets and removes a barrier; four waiters wait on it. A waiter may pass only if
     * the barrier node was absent at some state of the servers between the start of its wait and
     * its pass. Soak only ({@code -Pchaos-soak}): in CI the side-by-side run covers it.
     */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void nobodyPassesASetBarrier() throws Exception {
        try (ChaosRun run = ChaosRun.builder("barrier", ensemble).faults(LockChaosTest.SESSION_FAULTS).watch(GATE)
            .build()) {
            Started started = startGate(run, GATE);
            run.runFaults();
            Judged judged = started.judge(run);
            run.verdict(judged.operations(), Map.of(judged.check(), judged.problems()));
        }
    }

    /** Starts the set barrier's controller (client 0) and four waiters (clients 1-4); see {@link #nobodyPassesASetBarrier}. */
    private static Started startGate(ChaosRun run, String path) {
        List<long[]> passes = new CopyOnWriteArrayList<>();
        run.workers.start("controller", 1, c -> {
            DistributedBarrier barrier = new DistributedBarrier(run.client(0), path);
            barrier.setBarrier();
            run.workers.pace(Duration.ofMillis(300));
            barrier.removeBarrier();
            run.workers.pace(Duration.ofMillis(300));
            return true;
        });
        run.workers.start("gate-waiter", 4, w -> {
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
        return r -> {
            List<ServerTruth.Node> lives = r.truth().lives(path);
            List<String> problems = new ArrayList<>();
            for (long[] p : passes) {
                List<Long> candidates = new ArrayList<>(List.of(p[0]));
                lives.stream().filter(n -> n.deleted() && n.dzxid() > p[0] && n.dzxid() <= p[1])
                    .forEach(n -> candidates.add(n.dzxid()));
                boolean open = candidates.stream().anyMatch(z -> lives.stream().noneMatch(n -> n.existedAt(z)));
                if (!open) {
                    problems.add("gate-waiter-" + p[2] + " passed (view zxid 0x" + Long.toHexString(p[1]) + ") though the"
                        + " barrier existed throughout its wait from zxid 0x" + Long.toHexString(p[0]));
                }
            }
            return new Judged(passes.size(), "no pass while the barrier stood", problems, List.of());
        };
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
     * {@link #latchViolations}). Soak only ({@code -Pchaos-soak}): in CI the side-by-side run
     * covers it.
     */
    @Test
    @EnabledIfSystemProperty(named = "baton.chaos.allFaults", matches = "true")
    void aCountDownLatchOpensOnlyAtZero() throws Exception {
        try (ChaosRun run = ChaosRun.builder("count-down-latch", ensemble).faults(LockChaosTest.SESSION_FAULTS).watch(LATCH)
            .build()) {
            latchWorkload(run, LATCH, (client, timeout) -> new DistributedCountDownLatch(client, LATCH).await(timeout));
        }
    }

    /** The latch workload on clients 0 (setter), 1-3 (counters) and 4 (waiter), judged by {@link #latchViolations}. */
    static List<String> latchWorkload(ChaosRun run, String path, LatchAwait await) throws Exception {
        Started started = startLatch(run, path, await);
        run.runFaults();
        Judged judged = started.judge(run);
        run.verdict(judged.operations(), Map.of(judged.check(), judged.problems()), judged.notes().toArray(String[]::new));
        return judged.problems();
    }

    /** Starts {@link #latchWorkload}'s setter, counters and waiter. */
    private static Started startLatch(ChaosRun run, String path, LatchAwait await) {
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
        run.workers.start("latch-waiter", 1, w -> {
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
        return r -> {
            // only this latch's nodes: a side-by-side run watches other folders too
            List<ServerTruth.Node> nodes = r.truth().nodes().stream()
                .filter(n -> n.path().equals(path) || n.path().startsWith(path + "/")).toList();
            List<String> problems = latchViolations(nodes, path, 3, waits);
            long done = nodes.stream().filter(n -> n.name().equals("done") && n.czxid() > 0).count();
            return new Judged(waits.size(), "opens only at zero", problems, List.of(sets.get() + " generations set, " + done
                + " done"));
        };
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

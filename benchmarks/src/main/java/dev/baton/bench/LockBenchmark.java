package dev.baton.bench;

import dev.baton.bench.ContendedSlices.Step;
import dev.baton.bench.ContendedSlices.Tally;
import dev.baton.bench.ContendedSlices.Turn;
import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Lock throughput and wait times: Baton's {@code InterProcessMutex} against Curator 5.9's and
 * against the raw limit, on one three-server ensemble with fsync on, in one run.
 *
 * <p>Uncontended: one client acquires and releases in a loop; the raw limit is the same three
 * requests a lock needs (create ephemeral-sequential, getChildren, delete) with the plain
 * ZooKeeper client. Contended: eight clients, one thread each, acquire and release one lock as
 * fast as they can; the wait is the time from calling acquire to holding. The raw limit there is
 * ZooKeeper's lock recipe on the plain client (the write side of {@link RawReadWriteLock}): the
 * same create, listings, watch and delete, with nothing around them. Every client talks to the
 * same follower, so no side is closer to the leader than another.
 *
 * <p>The machine this runs on is shared, so its speed drifts by the second. The contenders
 * therefore take turns, on clients connected once at the start: one cycle each in the
 * uncontended loop (raw, Curator, Baton, then Curator, Baton, raw, ...), and 2.5 s slices for the
 * crowds (raw's, Curator's and Baton's in a rotating order; the report adds the median of the
 * ratios of slices in the same round, which a drift affects least).
 *
 * <p>Baton's mutex in the {@code SharedTicket} mode runs beside the default in both tables (one
 * thread per client: its hand-offs never happen, so it must cost what the default costs), and
 * {@link LocalContention} adds eight threads of one client.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar locks [slices] [local|kinds|fairness]} (default
 * 10 slices of each kind: about three minutes; {@code local} runs only the eight-threads tables,
 * {@code kinds} only those of the semaphore and the read/write lock ({@link LocalContentionKinds}),
 * {@code fairness} only {@link Fairness}: other clients' waits beside eight shared-ticket threads).
 * {@code --no-fsync} anywhere after the benchmark's name runs the servers without forcing their
 * log to disk (to tell a disk's share of a tail from the rest).
 */
public final class LockBenchmark {
    private static final int CONTENDERS = 8;
    /** Operations per library whose requests the servers count (after the timed phases). */
    static final int COUNTED = 200;
    private static final Duration SOLO_SLICE = Duration.ofMillis(700);
    private static final ContendedSlices CROWD = new ContendedSlices("contender-", 1, Duration.ofMillis(300), Duration.ofMillis(2_500));

    private LockBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int slices = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        boolean localOnly = args.length > 1 && args[1].equals("local");
        boolean kindsOnly = args.length > 1 && args[1].equals("kinds");
        boolean fairnessOnly = args.length > 1 && args[1].equals("fairness");
        boolean fsync = !List.of(args).contains("--no-fsync");
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(fsync).build()) {
            ensemble.start();
            int leader = ensemble.leaderId();
            int follower = leader == 1 ? 2 : 1;
            String connect = ensemble.connectString(follower);
            System.out.printf("locks: 3-node in-process ensemble, forceSync %s, every client on follower %d (leader %d), %d slices each%n",
                fsync ? "on" : "off", follower, leader, slices);
            Requests requests = new Requests(ensemble);
            System.out.printf("  clients: %s%n", Lan.describe());
            if (fairnessOnly) {
                Fairness.run(connect, slices);
                return;
            }
            if (!localOnly && !kindsOnly) {
                uncontended(connect, slices, requests);
                contended(connect, slices, requests);
            }
            if (!kindsOnly) {
                LocalContention.run(connect, slices, requests);
            }
            LocalContentionKinds.run(connect, slices);
        }
    }

    // ---- uncontended -------------------------------------------------------------------

    /** Throws {@code Exception} because a cycle's Curator {@code acquire()} and {@code release()} declare it. */
    private static void uncontended(String connect, int slices, Requests requests) throws Exception {
        ZooKeeper zk = Clients.raw(connect);
        CuratorFramework curator = Clients.curator(connect);
        BatonClient baton = Clients.baton(connect);
        try {
            String dir = "/bench-raw";
            Clients.folder(zk, dir);
            Step raw = () -> {
                String node = zk.create(dir + "/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
                zk.getChildren(dir, false);
                zk.delete(node, -1);
            };
            var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, "/bench-curator-solo");
            Step curatorCycle = () -> {
                curatorMutex.acquire();
                curatorMutex.release();
            };
            InterProcessMutex batonMutex = new InterProcessMutex(baton, "/bench-baton-solo");
            Step batonCycle = () -> {
                batonMutex.acquire();
                batonMutex.release();
            };
            InterProcessMutex sharedMutex = new InterProcessMutex(baton, "/bench-shared-solo", SharedTicket.defaults());
            Step sharedCycle = () -> {
                sharedMutex.acquire();
                sharedMutex.release();
            };
            // warm-up: class loading and JIT for all four
            for (Step cycle : List.of(raw, curatorCycle, batonCycle, sharedCycle)) {
                slice(cycle, Duration.ofSeconds(1));
            }
            // one cycle of each in turn (rotating who goes first), so all three see the same drift
            List<Step> cycles = List.of(raw, curatorCycle, batonCycle, sharedCycle);
            List<List<Double>> millis = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            long end = System.nanoTime() + SOLO_SLICE.toNanos() * 4 * slices;
            for (int turn = 0; System.nanoTime() < end; turn++) {
                for (int k = 0; k < 4; k++) {
                    int who = (turn + k) % 4;
                    long start = System.nanoTime();
                    cycles.get(who).run();
                    millis.get(who).add((System.nanoTime() - start) / 1e6);
                }
            }
            double rawRate = rate(millis.get(0));
            double curatorRate = rate(millis.get(1));
            double batonRate = rate(millis.get(2));
            Stats rawStats = Stats.of(millis.get(0));
            Stats curatorStats = Stats.of(millis.get(1));
            Stats batonStats = Stats.of(millis.get(2));
            double sharedRate = rate(millis.get(3));
            Stats sharedStats = Stats.of(millis.get(3));
            System.out.println();
            System.out.printf("uncontended acquire+release, one cycle of each in turn, %d cycles each%n", millis.get(0).size());
            System.out.printf("  %-46s %10s %10s %10s %8s%n", "", "cycles/s", "p50 ms", "p99 ms", "p50/RTT");
            System.out.printf("  %-46s %10.0f %10.2f %10.2f %8s%n", "raw ZooKeeper (create + getChildren + delete)", rawRate,
                rawStats.median(), rawStats.percentile(99), Requests.inRoundTrips(rawStats.median()));
            System.out.printf("  %-46s %10.0f %10.2f %10.2f %8s   %.2f of raw%n", "Curator InterProcessMutex", curatorRate,
                curatorStats.median(), curatorStats.percentile(99), Requests.inRoundTrips(curatorStats.median()), curatorRate / rawRate);
            System.out.printf("  %-46s %10.0f %10.2f %10.2f %8s   %.2f of raw, %.2fx Curator%n", "Baton InterProcessMutex", batonRate,
                batonStats.median(), batonStats.percentile(99), Requests.inRoundTrips(batonStats.median()), batonRate / rawRate,
                batonRate / curatorRate);
            System.out.printf("  %-46s %10.0f %10.2f %10.2f %8s   %.2f of raw, %.2fx Baton default%n", "Baton InterProcessMutex, SharedTicket",
                sharedRate, sharedStats.median(), sharedStats.percentile(99), Requests.inRoundTrips(sharedStats.median()),
                sharedRate / rawRate, sharedRate / batonRate);
            // the requests behind each cycle, counted by the servers, each library alone
            System.out.printf("  requests per uncontended cycle (%d cycles each, counted at the servers):%n", COUNTED);
            List<String> names = List.of("raw ZooKeeper", "Curator InterProcessMutex", "Baton InterProcessMutex",
                "Baton InterProcessMutex, SharedTicket");
            List<String> namespaces = List.of("bench-raw", "bench-curator-solo", "bench-baton-solo", "bench-shared-solo");
            for (int who = 0; who < 4; who++) {
                Requests.Count before = requests.now(namespaces.get(who));
                for (int i = 0; i < COUNTED; i++) {
                    cycles.get(who).run();
                }
                System.out.println(Requests.line(names.get(who), requests.now(namespaces.get(who)).minus(before), COUNTED));
            }
        } finally {
            baton.close();
            curator.close();
            zk.close();
        }
    }

    /** Cycles per second over the time the cycles took. */
    private static double rate(List<Double> millis) {
        return millis.size() / (millis.stream().mapToDouble(Double::doubleValue).sum() / 1e3);
    }

    /** Cycles completed in {@code length} (the last one may run over a little; it counts). */
    private static long slice(Step cycle, Duration length) throws Exception {
        long end = System.nanoTime() + length.toNanos();
        long count = 0;
        while (System.nanoTime() < end) {
            cycle.run();
            count++;
        }
        return count;
    }

    // ---- contended ---------------------------------------------------------------------

    /**
     * Every contender on its own thread, taking turns until {@code total} acquisitions are done
     * among them; each ends the turn it is in. {@return the acquisitions made, at least {@code total}}
     */
    static long crowdRun(List<Supplier<Turn>> contenders, int total) throws InterruptedException {
        java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicReference<Exception> failure = new java.util.concurrent.atomic.AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (Supplier<Turn> contender : contenders) {
            Thread thread = new Thread(() -> {
                try {
                    while (done.get() < total) {
                        Turn turn = contender.get();
                        turn.acquire().run();
                        turn.release().run();
                        done.incrementAndGet();
                    }
                } catch (Exception e) {
                    failure.set(e);
                }
            }, "counted-contender");
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(120));
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a counted contender failed", failure.get());
        }
        return done.get();
    }

    private static void contended(String connect, int slices, Requests requests) throws Exception {
        List<ZooKeeper> raws = new ArrayList<>();
        List<CuratorFramework> curators = new ArrayList<>();
        List<BatonClient> batons = new ArrayList<>();
        try {
            List<Supplier<Turn>> rawTurns = new ArrayList<>();
            List<Supplier<Turn>> curatorTurns = new ArrayList<>();
            List<Supplier<Turn>> batonTurns = new ArrayList<>();
            List<Supplier<Turn>> sharedTurns = new ArrayList<>();
            for (int i = 0; i < CONTENDERS; i++) {
                ZooKeeper zk = Clients.raw(connect);
                raws.add(zk);
                Clients.folder(zk, "/bench-raw-crowd");
                // writers only: ZooKeeper's exclusive lock recipe
                RawReadWriteLock raw = new RawReadWriteLock(zk, "/bench-raw-crowd");
                Turn rawTurn = new Turn(0, raw::acquireWrite, raw::release);
                rawTurns.add(() -> rawTurn);
                CuratorFramework curator = Clients.curator(connect);
                curators.add(curator);
                var mutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, "/bench-curator-crowd");
                Turn curatorTurn = new Turn(0, mutex::acquire, mutex::release);
                curatorTurns.add(() -> curatorTurn);
                BatonClient baton = Clients.baton(connect);
                batons.add(baton);
                InterProcessMutex batonMutex = new InterProcessMutex(baton, "/bench-baton-crowd");
                Turn batonTurn = new Turn(0, batonMutex::acquire, batonMutex::release);
                batonTurns.add(() -> batonTurn);
                InterProcessMutex sharedMutex = new InterProcessMutex(baton, "/bench-shared-crowd", SharedTicket.defaults());
                Turn sharedTurn = new Turn(0, sharedMutex::acquire, sharedMutex::release);
                sharedTurns.add(() -> sharedTurn);
            }
            List<Tally> tallies = CROWD.rotate(slices,
                List.of(round -> rawTurns, round -> curatorTurns, round -> batonTurns, round -> sharedTurns));
            Tally rawTally = tallies.get(0);
            Tally curatorTally = tallies.get(1);
            Tally batonTally = tallies.get(2);
            Tally sharedTally = tallies.get(3);
            Stats sw = sharedTally.allWaits();
            Stats rw = rawTally.allWaits();
            Stats cw = curatorTally.allWaits();
            Stats bw = batonTally.allWaits();
            System.out.println();
            System.out.printf("%d clients contending for one lock%n", CONTENDERS);
            System.out.printf("  %-46s %12s %12s %12s%n", "", "acquires/s", "wait p50 ms", "wait p99 ms");
            System.out.printf("  %-46s %12.0f %12.1f %12.1f%n", "raw ZooKeeper (the recipe on the plain client)", rawTally.perSecond(),
                rw.median(), rw.percentile(99));
            System.out.printf("  %-46s %12.0f %12.1f %12.1f   %.2f of raw%n", "Curator InterProcessMutex", curatorTally.perSecond(),
                cw.median(), cw.percentile(99), curatorTally.perSecond() / rawTally.perSecond());
            System.out.printf("  %-46s %12.0f %12.1f %12.1f   %.2f of raw%n", "Baton InterProcessMutex", batonTally.perSecond(),
                bw.median(), bw.percentile(99), batonTally.perSecond() / rawTally.perSecond());
            System.out.printf("  %-46s %12.0f %12.1f %12.1f   %.2f of raw, %.2fx Baton default (median ratio %.2f)%n",
                "Baton InterProcessMutex, SharedTicket", sharedTally.perSecond(), sw.median(), sw.percentile(99),
                sharedTally.perSecond() / rawTally.perSecond(), sharedTally.perSecond() / batonTally.perSecond(),
                sharedTally.medianRatio(batonTally));
            System.out.printf("  Baton/Curator: %.2fx acquisitions/s (median ratio %.2f), p50 wait %.2fx, p99 wait %.2fx (below 1 is better)%n",
                batonTally.perSecond() / curatorTally.perSecond(), batonTally.medianRatio(curatorTally),
                bw.median() / cw.median(), bw.percentile(99) / cw.percentile(99));
            System.out.printf("  Curator/raw: median ratio %.2f; Baton/raw: median ratio %.2f%n",
                curatorTally.medianRatio(rawTally), batonTally.medianRatio(rawTally));
            System.out.printf("  requests per acquisition with %d contenders (%d acquisitions each, counted at the servers):%n",
                CONTENDERS, COUNTED);
            List<String> names = List.of("raw ZooKeeper (the recipe on the plain client)", "Curator InterProcessMutex",
                "Baton InterProcessMutex", "Baton InterProcessMutex, SharedTicket");
            List<List<Supplier<Turn>>> parties = List.of(rawTurns, curatorTurns, batonTurns, sharedTurns);
            List<String> namespaces = List.of("bench-raw-crowd", "bench-curator-crowd", "bench-baton-crowd", "bench-shared-crowd");
            for (int who = 0; who < 4; who++) {
                Requests.Count before = requests.now(namespaces.get(who));
                long done = crowdRun(parties.get(who), COUNTED);
                System.out.println(Requests.line(names.get(who), requests.now(namespaces.get(who)).minus(before), (int) done));
            }
        } finally {
            raws.forEach(Clients::closeQuietly);
            curators.forEach(CuratorFramework::close);
            batons.forEach(BatonClient::close);
        }
    }
}

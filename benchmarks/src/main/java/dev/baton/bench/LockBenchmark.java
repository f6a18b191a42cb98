package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Lock throughput and wait times: Baton's {@code InterProcessMutex} against Curator 5.9's and
 * against the raw limit, on one three-server ensemble with fsync on, in one run.
 *
 * <p>Uncontended: one client acquires and releases in a loop; the raw limit is the same three
 * requests a lock needs (create ephemeral-sequential, getChildren, delete) with the plain
 * ZooKeeper client. Contended: eight clients, one thread each, acquire and release one lock as
 * fast as they can; the wait is the time from calling acquire to holding. Every client talks to
 * the same follower, so no side is closer to the leader than another. Each measurement runs
 * {@code rounds} times after a one-second warm-up, Curator first in even rounds and Baton first
 * in odd ones; every round is printed, and the table shows medians.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar locks [seconds per measurement] [rounds]}
 * (default 5 s, 3 rounds: about 100 s).
 */
public final class LockBenchmark {
    private static final int CONTENDERS = 8;
    private static final int SESSION_MS = 30_000;

    private LockBenchmark() {
    }

    /** One way of taking and giving back a lock once, on the calling thread. */
    @FunctionalInterface
    interface Cycle {
        void run() throws Exception;
    }

    /** A cycle that reports how long its acquire waited, in milliseconds. */
    @FunctionalInterface
    interface TimedCycle {
        double run() throws Exception;
    }

    /** What one measurement saw. */
    record Result(double perSecond, Stats waitsMillis) {
    }

    public static void main(String[] args) throws Exception {
        Duration measure = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 5);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            int leader = ensemble.leaderId();
            int follower = leader == 1 ? 2 : 1;
            String connect = ensemble.connectString(follower);
            System.out.printf("locks: 3-node in-process ensemble, forceSync on, every client on follower %d (leader %d);"
                + " %d round(s) of %d s per measurement, medians%n", follower, leader, rounds, measure.toSeconds());

            List<Double> raw = new ArrayList<>();
            List<Double> curatorSolo = new ArrayList<>();
            List<Double> batonSolo = new ArrayList<>();
            List<Result> curatorCrowd = new ArrayList<>();
            List<Result> batonCrowd = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                // odd rounds run Baton first, so neither side always follows the other
                boolean batonFirst = round % 2 == 1;
                raw.add(rawCycles(connect, measure));
                if (batonFirst) {
                    batonSolo.add(batonUncontended(connect, measure));
                    curatorSolo.add(curatorUncontended(connect, measure));
                    batonCrowd.add(batonContended(connect, measure));
                    curatorCrowd.add(curatorContended(connect, measure));
                } else {
                    curatorSolo.add(curatorUncontended(connect, measure));
                    batonSolo.add(batonUncontended(connect, measure));
                    curatorCrowd.add(curatorContended(connect, measure));
                    batonCrowd.add(batonContended(connect, measure));
                }
                System.out.printf("round %d: raw %.0f/s, uncontended Curator %.0f/s Baton %.0f/s, contended Curator %.0f/s"
                        + " (p99 %.1f ms) Baton %.0f/s (p99 %.1f ms)%n", round + 1, raw.get(round), curatorSolo.get(round),
                    batonSolo.get(round), curatorCrowd.get(round).perSecond(), curatorCrowd.get(round).waitsMillis().percentile(99),
                    batonCrowd.get(round).perSecond(), batonCrowd.get(round).waitsMillis().percentile(99));
            }
            report(median(raw), median(curatorSolo), median(batonSolo), medianResult(curatorCrowd), medianResult(batonCrowd));
        }
    }

    private static void report(double raw, double curator, double baton, Result curatorCrowd, Result batonCrowd) {
        System.out.println();
        System.out.println("uncontended acquire+release, cycles/s");
        System.out.printf("  %-46s %8.0f%n", "raw ZooKeeper (create + getChildren + delete)", raw);
        System.out.printf("  %-46s %8.0f   %.2f of raw%n", "Curator InterProcessMutex", curator, curator / raw);
        System.out.printf("  %-46s %8.0f   %.2f of raw, %.2fx Curator%n", "Baton InterProcessMutex", baton, baton / raw, baton / curator);
        System.out.println();
        System.out.printf("%d clients contending for one lock%n", CONTENDERS);
        System.out.printf("  %-26s %12s %12s %12s%n", "", "acquires/s", "wait p50 ms", "wait p99 ms");
        row("Curator InterProcessMutex", curatorCrowd);
        row("Baton InterProcessMutex", batonCrowd);
        System.out.printf("  Baton/Curator: %.2fx acquisitions/s, p50 wait %.2fx, p99 wait %.2fx (below 1 is better)%n",
            batonCrowd.perSecond() / curatorCrowd.perSecond(),
            batonCrowd.waitsMillis().median() / curatorCrowd.waitsMillis().median(),
            batonCrowd.waitsMillis().percentile(99) / curatorCrowd.waitsMillis().percentile(99));
    }

    private static void row(String name, Result r) {
        System.out.printf("  %-26s %12.0f %12.1f %12.1f%n", name, r.perSecond(), r.waitsMillis().median(), r.waitsMillis().percentile(99));
    }

    // ---- uncontended -------------------------------------------------------------------

    private static double rawCycles(String connect, Duration measure) throws Exception {
        ZooKeeper zk = connectRaw(connect);
        try {
            String dir = "/bench-raw";
            try {
                zk.create(dir, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // from an earlier round
            }
            return loop(measure, () -> {
                String node = zk.create(dir + "/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
                zk.getChildren(dir, false);
                zk.delete(node, -1);
            }).perSecond();
        } finally {
            zk.close();
        }
    }

    private static double curatorUncontended(String connect, Duration measure) throws Exception {
        try (CuratorFramework curator = startCurator(connect)) {
            var mutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, "/bench-curator-solo");
            return loop(measure, () -> {
                mutex.acquire();
                mutex.release();
            }).perSecond();
        }
    }

    private static double batonUncontended(String connect, Duration measure) throws Exception {
        try (BatonClient client = startBaton(connect)) {
            InterProcessMutex mutex = new InterProcessMutex(client, "/bench-baton-solo");
            return loop(measure, () -> {
                mutex.acquire();
                mutex.release();
            }).perSecond();
        }
    }

    // ---- contended ---------------------------------------------------------------------

    private static Result curatorContended(String connect, Duration measure) throws Exception {
        List<CuratorFramework> clients = new ArrayList<>();
        try {
            List<TimedCycle> cycles = new ArrayList<>();
            for (int i = 0; i < CONTENDERS; i++) {
                CuratorFramework curator = startCurator(connect);
                clients.add(curator);
                var mutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, "/bench-curator-crowd");
                cycles.add(timedCycle(mutex::acquire, mutex::release));
            }
            return crowd(cycles, measure);
        } finally {
            clients.forEach(CuratorFramework::close);
        }
    }

    private static Result batonContended(String connect, Duration measure) throws Exception {
        List<BatonClient> clients = new ArrayList<>();
        try {
            List<TimedCycle> cycles = new ArrayList<>();
            for (int i = 0; i < CONTENDERS; i++) {
                BatonClient client = startBaton(connect);
                clients.add(client);
                InterProcessMutex mutex = new InterProcessMutex(client, "/bench-baton-crowd");
                cycles.add(timedCycle(mutex::acquire, mutex::release));
            }
            return crowd(cycles, measure);
        } finally {
            clients.forEach(BatonClient::close);
        }
    }

    /** Acquire (timed: that is the wait), then release. */
    private static TimedCycle timedCycle(Cycle acquire, Cycle release) {
        return () -> {
            long start = System.nanoTime();
            acquire.run();
            double waited = (System.nanoTime() - start) / 1e6;
            release.run();
            return waited;
        };
    }

    /** Runs every cycle on its own thread: a warm-up second, then {@code measure}. */
    private static Result crowd(List<TimedCycle> cycles, Duration measure) throws Exception {
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        long[] counts = new long[cycles.size()];
        List<List<Double>> waits = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(cycles.size());
        for (int i = 0; i < cycles.size(); i++) {
            int me = i;
            List<Double> mine = new ArrayList<>();
            waits.add(mine);
            Thread thread = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        boolean counted = measuring.get();
                        double waited = cycles.get(me).run();
                        if (counted && measuring.get()) {
                            counts[me]++;
                            mine.add(waited);
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    done.countDown();
                }
            }, "contender-" + i);
            thread.start();
        }
        TimeUnit.SECONDS.sleep(1); // warm-up: every contender in line
        measuring.set(true);
        long start = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(measure.toNanos());
        measuring.set(false);
        long elapsed = System.nanoTime() - start;
        stop.set(true);
        if (!done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("contenders did not stop");
        }
        long total = 0;
        List<Double> all = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            total += counts[i];
            all.addAll(waits.get(i));
        }
        return new Result(total / (elapsed / 1e9), Stats.of(all.stream().mapToDouble(Double::doubleValue).toArray()));
    }

    /** One thread: a warm-up second, then as many cycles as fit in {@code measure}. */
    private static Result loop(Duration measure, Cycle cycle) throws Exception {
        long warmUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (System.nanoTime() < warmUntil) {
            cycle.run();
        }
        long start = System.nanoTime();
        long end = start + measure.toNanos();
        long count = 0;
        while (System.nanoTime() < end) {
            cycle.run();
            count++;
        }
        return new Result(count / ((System.nanoTime() - start) / 1e9), Stats.of(new double[0]));
    }

    // ---- clients -----------------------------------------------------------------------

    private static ZooKeeper connectRaw(String connect) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connect, SESSION_MS, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            zk.close();
            throw new IllegalStateException("no connection to " + connect);
        }
        return zk;
    }

    private static CuratorFramework startCurator(String connect) throws InterruptedException {
        CuratorFramework curator = CuratorFrameworkFactory.newClient(connect, SESSION_MS, 15_000,
            new ExponentialBackoffRetry(100, 5));
        curator.start();
        if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
            curator.close();
            throw new IllegalStateException("Curator did not connect to " + connect);
        }
        return curator;
    }

    private static BatonClient startBaton(String connect) throws InterruptedException {
        BatonClient client = BatonClient.builder().connectString(connect).sessionTimeout(Duration.ofMillis(SESSION_MS)).build();
        client.start();
        if (!client.blockUntilConnected(Duration.ofSeconds(30))) {
            client.close();
            throw new IllegalStateException("Baton did not connect to " + connect);
        }
        return client;
    }

    private static double median(List<Double> values) {
        return Stats.of(values.stream().mapToDouble(Double::doubleValue).toArray()).median();
    }

    /** The round with the median throughput (its waits kept whole, so percentiles stay from one run). */
    private static Result medianResult(List<Result> results) {
        List<Result> sorted = new ArrayList<>(results);
        sorted.sort((a, b) -> Double.compare(a.perSecond(), b.perSecond()));
        return sorted.get((sorted.size() - 1) / 2);
    }
}

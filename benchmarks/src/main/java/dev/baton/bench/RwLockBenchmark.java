package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Read/write lock under a read-mostly load: Baton's {@code InterProcessReadWriteLock} against
 * Curator 5.9's, on one three-server ensemble with fsync on, in one run.
 *
 * <p>Eight clients, one thread each, take the lock over and over on one path: nine times in ten
 * to read, once to write (the same seeded sequence of choices for both libraries), hold it for
 * {@code hold} milliseconds, and let go. Reported: acquisitions per second, and the wait — from
 * calling acquire to holding — at p50 and p99, for reads and writes apart. Every client talks to
 * the same follower.
 *
 * <p>The shared machine's speed drifts by the second, so the two libraries take turns in 2.5 s
 * slices on clients connected once (Curator's and Baton's alternately, who goes first switching
 * every round), and the report adds the median of the ratios of neighbouring slices.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar rwlock [slices] [holdMillis] [threadsPerClient]}
 * (defaults: 10 slices each, 0 ms hold, 1 thread per client; about 60 s).
 */
public final class RwLockBenchmark {
    private static final int CLIENTS = 8;
    private static final int WRITES_IN_TEN = 1;
    private static final int SESSION_MS = 30_000;
    private static final Duration SLICE = Duration.ofMillis(2_500);
    private static final Duration WARM_UP = Duration.ofMillis(300);

    private RwLockBenchmark() {
    }

    /**
     * Takes one side of a lock, or gives it back, on the calling thread. Throws {@code Exception}
     * because Curator's {@code acquire()} and {@code release()} declare it.
     */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    /** One client's two sides. */
    record Sides(Step acquireRead, Step releaseRead, Step acquireWrite, Step releaseWrite) {
    }

    /** One library's totals over all its slices. */
    static final class Tally {
        long count;
        long nanos;
        final List<Double> perSlice = new ArrayList<>();
        final List<Double> readWaits = new ArrayList<>();
        final List<Double> writeWaits = new ArrayList<>();

        double perSecond() {
            return count / (nanos / 1e9);
        }

        Stats all() {
            List<Double> both = new ArrayList<>(readWaits);
            both.addAll(writeWaits);
            return stats(both);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int slices = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        long holdMillis = args.length > 1 ? Long.parseLong(args[1]) : 0;
        int threadsPerClient = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            int leader = ensemble.leaderId();
            int follower = leader == 1 ? 2 : 1;
            String connect = ensemble.connectString(follower);
            System.out.printf("rwlock: 3-node in-process ensemble, forceSync on, every client on follower %d (leader %d)%n",
                follower, leader);
            System.out.printf("%d clients x %d thread(s), %d%% reads, hold %d ms, %d slices of %d ms each%n", CLIENTS,
                threadsPerClient, 100 - WRITES_IN_TEN * 10, holdMillis, slices, SLICE.toMillis());
            run(connect, slices, holdMillis, threadsPerClient);
        }
    }

    private static void run(String connect, int slices, long holdMillis, int threadsPerClient) throws InterruptedException {
        List<CuratorFramework> curators = new ArrayList<>();
        List<BatonClient> batons = new ArrayList<>();
        try {
            List<Sides> curatorSides = new ArrayList<>();
            List<Sides> batonSides = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                CuratorFramework curator = startCurator(connect);
                curators.add(curator);
                BatonClient baton = startBaton(connect);
                batons.add(baton);
                for (int t = 0; t < threadsPerClient; t++) {
                    // a lock object per thread: Curator's sides are re-entrant per object and thread
                    var rw = new org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock(curator, "/bench-curator-rw");
                    InterProcessMutex read = rw.readLock();
                    InterProcessMutex write = rw.writeLock();
                    curatorSides.add(new Sides(read::acquire, read::release, write::acquire, write::release));
                    InterProcessReadWriteLock batonRw = new InterProcessReadWriteLock(baton, "/bench-baton-rw");
                    batonSides.add(new Sides(batonRw.readLock()::acquire, batonRw.readLock()::release,
                        batonRw.writeLock()::acquire, batonRw.writeLock()::release));
                }
            }
            Tally curator = new Tally();
            Tally baton = new Tally();
            slice(curatorSides, holdMillis, -1, new Tally());
            slice(batonSides, holdMillis, -1, new Tally());
            for (int i = 0; i < slices; i++) {
                if (i % 2 == 0) {
                    slice(curatorSides, holdMillis, i, curator);
                    slice(batonSides, holdMillis, i, baton);
                } else {
                    slice(batonSides, holdMillis, i, baton);
                    slice(curatorSides, holdMillis, i, curator);
                }
            }
            report(curator, baton);
        } finally {
            curators.forEach(CuratorFramework::close);
            batons.forEach(BatonClient::close);
        }
    }

    private static void report(Tally curator, Tally baton) {
        Stats cr = stats(curator.readWaits);
        Stats cw = stats(curator.writeWaits);
        Stats br = stats(baton.readWaits);
        Stats bw = stats(baton.writeWaits);
        System.out.println();
        System.out.printf("  %-34s %12s %10s %10s %10s %10s %10s%n", "", "acquires/s", "wait p99", "read p50", "read p99",
            "write p50", "write p99");
        System.out.printf("  %-34s %12.0f %10.1f %10.1f %10.1f %10.1f %10.1f%n", "Curator InterProcessReadWriteLock",
            curator.perSecond(), curator.all().percentile(99), cr.median(), cr.percentile(99), cw.median(), cw.percentile(99));
        System.out.printf("  %-34s %12.0f %10.1f %10.1f %10.1f %10.1f %10.1f%n", "Baton InterProcessReadWriteLock",
            baton.perSecond(), baton.all().percentile(99), br.median(), br.percentile(99), bw.median(), bw.percentile(99));
        System.out.println("  (waits in ms)");
        System.out.printf("  Baton/Curator: %.2fx acquisitions/s (median ratio of neighbouring slices %.2f); wait p99 %.2fx,"
                + " read p99 %.2fx, write p99 %.2fx (below 1 is better)%n",
            baton.perSecond() / curator.perSecond(), medianRatio(baton, curator),
            baton.all().percentile(99) / curator.all().percentile(99), br.percentile(99) / cr.percentile(99),
            bw.percentile(99) / cw.percentile(99));
    }

    /** Every client on its own thread for one slice; counts what happened after the warm-up. */
    private static void slice(List<Sides> clients, long holdMillis, int round, Tally tally) throws InterruptedException {
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        long[] counts = new long[clients.size()];
        List<List<Double>> reads = new ArrayList<>();
        List<List<Double>> writes = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            int me = i;
            Sides sides = clients.get(i);
            // the same choices for both libraries in the same round
            Random choices = new Random(31L * round + me);
            List<Double> myReads = new ArrayList<>();
            List<Double> myWrites = new ArrayList<>();
            reads.add(myReads);
            writes.add(myWrites);
            Thread thread = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        boolean write = choices.nextInt(10) < WRITES_IN_TEN;
                        boolean counted = counting.get();
                        long start = System.nanoTime();
                        (write ? sides.acquireWrite() : sides.acquireRead()).run();
                        double waited = (System.nanoTime() - start) / 1e6;
                        if (holdMillis > 0) {
                            TimeUnit.MILLISECONDS.sleep(holdMillis);
                        }
                        (write ? sides.releaseWrite() : sides.releaseRead()).run();
                        if (counted && counting.get()) {
                            counts[me]++;
                            (write ? myWrites : myReads).add(waited);
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "rw-contender-" + i);
            threads.add(thread);
            thread.start();
        }
        TimeUnit.NANOSECONDS.sleep(WARM_UP.toNanos());
        counting.set(true);
        long start = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(SLICE.toNanos());
        counting.set(false);
        long elapsed = System.nanoTime() - start;
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
        long total = 0;
        for (int i = 0; i < counts.length; i++) {
            total += counts[i];
            tally.readWaits.addAll(reads.get(i));
            tally.writeWaits.addAll(writes.get(i));
        }
        tally.count += total;
        tally.nanos += elapsed;
        tally.perSlice.add(total / (elapsed / 1e9));
    }

    private static Stats stats(List<Double> millis) {
        return Stats.of(millis.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The median over rounds of {@code a}'s rate divided by {@code b}'s in the same round. */
    private static double medianRatio(Tally a, Tally b) {
        double[] ratios = new double[Math.min(a.perSlice.size(), b.perSlice.size())];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = a.perSlice.get(i) / b.perSlice.get(i);
        }
        return Stats.of(ratios).median();
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
}

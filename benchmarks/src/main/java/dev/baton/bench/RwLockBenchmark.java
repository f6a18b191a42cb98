package dev.baton.bench;

import dev.baton.bench.ContendedSlices.Step;
import dev.baton.bench.ContendedSlices.Tally;
import dev.baton.bench.ContendedSlices.Turn;
import dev.baton.framework.BatonClient;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * Read/write lock under a read-mostly load: Baton's {@code InterProcessReadWriteLock} against
 * Curator 5.9's and against ZooKeeper's shared-lock recipe on the plain client
 * ({@link RawReadWriteLock}, the limit), on one three-server ensemble with fsync on, in one run.
 *
 * <p>Eight clients, one thread each, take the lock over and over on one path: nine times in ten
 * to read, once to write (the same seeded sequence of choices for both libraries), hold it for
 * {@code hold} milliseconds, and let go. Reported: acquisitions per second, and the wait — from
 * calling acquire to holding — at p50 and p99, for reads and writes apart. Every client talks to
 * the same follower.
 *
 * <p>The shared machine's speed drifts by the second, so the three take turns in 2.5 s slices on
 * clients connected once (who goes first rotating every round), and the report adds the median
 * of the ratios of slices in the same round.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar rwlock [slices] [holdMillis] [threadsPerClient]}
 * (defaults: 10 slices each, 0 ms hold, 1 thread per client; about 60 s).
 */
public final class RwLockBenchmark {
    private static final int CLIENTS = 8;
    private static final int WRITES_IN_TEN = 1;
    private static final Duration SLICE = Duration.ofMillis(2_500);
    /** Kinds of wait, as {@link Turn#kind()}. */
    private static final int READ = 0;
    private static final int WRITE = 1;
    private static final ContendedSlices CROWD = new ContendedSlices("rw-contender-", 2, Duration.ofMillis(300), SLICE);

    private RwLockBenchmark() {
    }

    /** One client's two sides. */
    record Sides(Turn read, Turn write) {
    }

    public static void main(String[] args) throws InterruptedException, IOException, KeeperException {
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
            run(connect, slices, holdMillis, threadsPerClient, new Requests(ensemble));
        }
    }

    private static void run(String connect, int slices, long holdMillis, int threadsPerClient, Requests requests)
        throws InterruptedException, IOException, KeeperException {
        List<ZooKeeper> raws = new ArrayList<>();
        List<CuratorFramework> curators = new ArrayList<>();
        List<BatonClient> batons = new ArrayList<>();
        try {
            List<Sides> rawSides = new ArrayList<>();
            List<Sides> curatorSides = new ArrayList<>();
            List<Sides> batonSides = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                ZooKeeper zk = Clients.raw(connect);
                raws.add(zk);
                Clients.folder(zk, "/bench-raw-rw");
                CuratorFramework curator = Clients.curator(connect);
                curators.add(curator);
                BatonClient baton = Clients.baton(connect);
                batons.add(baton);
                for (int t = 0; t < threadsPerClient; t++) {
                    RawReadWriteLock rawRw = new RawReadWriteLock(zk, "/bench-raw-rw");
                    rawSides.add(new Sides(held(READ, rawRw::acquireRead, rawRw::release, holdMillis),
                        held(WRITE, rawRw::acquireWrite, rawRw::release, holdMillis)));
                    // a lock object per thread: Curator's sides are re-entrant per object and thread
                    var rw = new org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock(curator, "/bench-curator-rw");
                    InterProcessMutex read = rw.readLock();
                    InterProcessMutex write = rw.writeLock();
                    curatorSides.add(new Sides(held(READ, read::acquire, read::release, holdMillis),
                        held(WRITE, write::acquire, write::release, holdMillis)));
                    InterProcessReadWriteLock batonRw = new InterProcessReadWriteLock(baton, "/bench-baton-rw");
                    batonSides.add(new Sides(held(READ, batonRw.readLock()::acquire, batonRw.readLock()::release, holdMillis),
                        held(WRITE, batonRw.writeLock()::acquire, batonRw.writeLock()::release, holdMillis)));
                }
            }
            List<Tally> tallies = CROWD.rotate(slices, List.of(choosing(rawSides), choosing(curatorSides), choosing(batonSides)));
            report(tallies.get(0), tallies.get(1), tallies.get(2));
            // the requests behind an acquisition, each library's crowd alone, counted by the servers
            System.out.printf("  requests per acquisition, 8 clients 90/10 (%d acquisitions each, counted at the servers):%n",
                LockBenchmark.COUNTED);
            List<String> names = List.of("raw ZooKeeper (the recipe)", "Curator InterProcessReadWriteLock",
                "Baton InterProcessReadWriteLock");
            List<String> namespaces = List.of("bench-raw-rw", "bench-curator-rw", "bench-baton-rw");
            List<List<Sides>> parties = List.of(rawSides, curatorSides, batonSides);
            for (int who = 0; who < 3; who++) {
                Requests.Count before = requests.now(namespaces.get(who));
                long done = LockBenchmark.crowdRun(choosing(parties.get(who)).apply(slices + 1), LockBenchmark.COUNTED);
                System.out.println(Requests.line(names.get(who), requests.now(namespaces.get(who)).minus(before), (int) done));
            }
        } finally {
            raws.forEach(Clients::closeQuietly);
            curators.forEach(CuratorFramework::close);
            batons.forEach(BatonClient::close);
        }
    }

    private static void report(Tally raw, Tally curator, Tally baton) {
        Stats cr = curator.waits(READ);
        Stats cw = curator.waits(WRITE);
        Stats br = baton.waits(READ);
        Stats bw = baton.waits(WRITE);
        System.out.println();
        System.out.printf("  %-34s %12s %10s %10s %10s %10s %10s%n", "", "acquires/s", "wait p99", "read p50", "read p99",
            "write p50", "write p99");
        row("raw ZooKeeper (the recipe)", raw);
        row("Curator InterProcessReadWriteLock", curator);
        row("Baton InterProcessReadWriteLock", baton);
        System.out.println("  (waits in ms)");
        System.out.printf("  of raw: Curator %.2f, Baton %.2f (median ratios of slices in the same round %.2f, %.2f)%n",
            curator.perSecond() / raw.perSecond(), baton.perSecond() / raw.perSecond(), curator.medianRatio(raw),
            baton.medianRatio(raw));
        System.out.printf("  Baton/Curator: %.2fx acquisitions/s (median ratio of slices in the same round %.2f); wait p99 %.2fx,"
                + " read p99 %.2fx, write p99 %.2fx (below 1 is better)%n",
            baton.perSecond() / curator.perSecond(), baton.medianRatio(curator),
            baton.allWaits().percentile(99) / curator.allWaits().percentile(99), br.percentile(99) / cr.percentile(99),
            bw.percentile(99) / cw.percentile(99));
    }

    private static void row(String name, Tally tally) {
        Stats read = tally.waits(READ);
        Stats write = tally.waits(WRITE);
        System.out.printf("  %-34s %12.0f %10.1f %10.1f %10.1f %10.1f %10.1f%n", name, tally.perSecond(),
            tally.allWaits().percentile(99), read.median(), read.percentile(99), write.median(), write.percentile(99));
    }

    /** A turn that, once it holds the lock (and its wait is taken), holds it {@code holdMillis} before letting go. */
    private static Turn held(int kind, Step acquire, Step release, long holdMillis) {
        return new Turn(kind, acquire, () -> {
            if (holdMillis > 0) {
                TimeUnit.MILLISECONDS.sleep(holdMillis);
            }
            release.run();
        });
    }

    /**
     * Each client's turns in one round: a write {@link #WRITES_IN_TEN} times in ten, else a read,
     * from a sequence seeded by the round and the client.
     */
    private static IntFunction<List<Supplier<Turn>>> choosing(List<Sides> clients) {
        return round -> {
            List<Supplier<Turn>> turns = new ArrayList<>();
            for (int me = 0; me < clients.size(); me++) {
                Sides sides = clients.get(me);
                // the same choices for both libraries in the same round
                Random choices = new Random(31L * round + me);
                turns.add(() -> choices.nextInt(10) < WRITES_IN_TEN ? sides.write() : sides.read());
            }
            return turns;
        };
    }
}

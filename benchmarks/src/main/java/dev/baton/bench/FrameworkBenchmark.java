package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Baton's framework operations against the raw ZooKeeper client (the limit), on one ensemble, in
 * one run: create, getData, setData and delete, blocking one at a time and asynchronous with
 * many in flight. Rounds alternate which client goes first; the median round counts.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar framework [ops-per-round] [rounds] [--no-fsync]}.
 */
public final class FrameworkBenchmark {
    private static final byte[] DATA = new byte[64];
    private static final int IN_FLIGHT = 200;

    private FrameworkBenchmark() {
    }

    /** One client's way of doing an operation {@code n} times. */
    private interface Loop {
        void run(String base, int n) throws KeeperException, InterruptedException;
    }

    public static void main(String[] args) throws IOException, KeeperException, InterruptedException {
        int ops = args.length > 0 && !args[0].startsWith("--") ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 && !args[1].startsWith("--") ? Integer.parseInt(args[1]) : 5;
        boolean fsync = !List.of(args).contains("--no-fsync");
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(fsync).build()) {
            ensemble.start();
            // both clients on the same follower: a client on the leader saves a hop on every write
            int leader = ensemble.leaderId();
            int follower = leader == 1 ? 2 : 1;
            String connect = ensemble.connectString(follower);
            ZooKeeper raw = Clients.raw(connect);
            BatonClient baton = BatonClient.builder().connectString(connect).build();
            baton.start();
            baton.blockUntilConnected(Duration.ofSeconds(30));
            try {
                raw.create("/bench", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                System.out.printf("3-node ensemble, fsync %s, both clients on follower %d (leader %d), %d ops per round,"
                    + " %d rounds, median round (ops/s)%n", fsync ? "on" : "off", follower, leader, ops, rounds);
                System.out.printf("%-22s %12s %12s %8s%n", "operation", "raw ZooKeeper", "Baton", "ratio");
                report("create (blocking)", ops, rounds, (b, n) -> rawCreate(raw, b, n), (b, n) -> batonCreate(baton, b, n), raw);
                report("getData (blocking)", ops, rounds, (b, n) -> rawGet(raw, b, n), (b, n) -> batonGet(baton, b, n), raw);
                report("setData (blocking)", ops, rounds, (b, n) -> rawSet(raw, b, n), (b, n) -> batonSet(baton, b, n), raw);
                report("delete (blocking)", ops, rounds, (b, n) -> rawDelete(raw, b, n), (b, n) -> batonDelete(baton, b, n), raw);
                report("create (async)", ops, rounds, (b, n) -> rawCreateAsync(raw, b, n), (b, n) -> batonCreateAsync(baton, b, n), raw);
                report("getData (async)", ops, rounds, (b, n) -> rawGetAsync(raw, b, n), (b, n) -> batonGetAsync(baton, b, n), raw);
            } finally {
                baton.close();
                raw.close();
            }
        }
    }

    private static void report(String name, int ops, int rounds, Loop raw, Loop baton, ZooKeeper admin)
        throws KeeperException, InterruptedException {
        double[] rawRates = new double[rounds];
        double[] batonRates = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            String rawBase = "/bench/raw-" + r;
            String batonBase = "/bench/baton-" + r;
            prepare(admin, rawBase, ops, name);
            prepare(admin, batonBase, ops, name);
            if (r % 2 == 0) {
                rawRates[r] = rate(raw, rawBase, ops);
                batonRates[r] = rate(baton, batonBase, ops);
            } else {
                batonRates[r] = rate(baton, batonBase, ops);
                rawRates[r] = rate(raw, rawBase, ops);
            }
            cleanup(admin, rawBase);
            cleanup(admin, batonBase);
        }
        double rawMedian = Stats.of(rawRates).median();
        double batonMedian = Stats.of(batonRates).median();
        System.out.printf("%-22s %12.0f %12.0f %8.2f%n", name, rawMedian, batonMedian, batonMedian / rawMedian);
    }

    private static double rate(Loop loop, String base, int ops) throws KeeperException, InterruptedException {
        long start = System.nanoTime();
        loop.run(base, ops);
        return ops / ((System.nanoTime() - start) / 1e9);
    }

    /** Each round works on its own folder; reads, updates and deletes need their nodes made first. */
    private static void prepare(ZooKeeper zk, String base, int ops, String name) throws KeeperException, InterruptedException {
        zk.create(base, DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        if (name.startsWith("delete")) {
            CountDownLatch done = new CountDownLatch(ops);
            for (int i = 0; i < ops; i++) {
                zk.create(base + "/n" + i, DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                    (rc, p, c, n) -> done.countDown(), null);
            }
            done.await(5, TimeUnit.MINUTES);
        }
    }

    private static void cleanup(ZooKeeper zk, String base) throws KeeperException, InterruptedException {
        for (String child : zk.getChildren(base, false)) {
            zk.delete(base + "/" + child, -1);
        }
        zk.delete(base, -1);
    }

    private static void rawCreate(ZooKeeper zk, String base, int n) throws KeeperException, InterruptedException {
        for (int i = 0; i < n; i++) {
            zk.create(base + "/n" + i, DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
    }

    private static void batonCreate(BatonClient c, String base, int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            c.create().forPath(base + "/n" + i, DATA);
        }
    }

    private static void rawGet(ZooKeeper zk, String base, int n) throws KeeperException, InterruptedException {
        for (int i = 0; i < n; i++) {
            zk.getData(base, false, null);
        }
    }

    private static void batonGet(BatonClient c, String base, int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            c.getData().forPath(base);
        }
    }

    private static void rawSet(ZooKeeper zk, String base, int n) throws KeeperException, InterruptedException {
        for (int i = 0; i < n; i++) {
            zk.setData(base, DATA, -1);
        }
    }

    private static void batonSet(BatonClient c, String base, int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            c.setData().forPath(base, DATA);
        }
    }

    private static void rawDelete(ZooKeeper zk, String base, int n) throws KeeperException, InterruptedException {
        for (int i = 0; i < n; i++) {
            zk.delete(base + "/n" + i, -1);
        }
    }

    private static void batonDelete(BatonClient c, String base, int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            c.delete().forPath(base + "/n" + i);
        }
    }

    private static void rawCreateAsync(ZooKeeper zk, String base, int n) throws InterruptedException {
        Semaphore window = new Semaphore(IN_FLIGHT);
        CountDownLatch done = new CountDownLatch(n);
        AsyncCallback.StringCallback cb = (rc, p, c, name) -> {
            window.release();
            done.countDown();
        };
        for (int i = 0; i < n; i++) {
            window.acquire();
            zk.create(base + "/n" + i, DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, cb, null);
        }
        done.await();
    }

    private static void batonCreateAsync(BatonClient c, String base, int n) throws InterruptedException {
        Semaphore window = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<String>> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            window.acquire();
            all.add(c.create().forPathAsync(base + "/n" + i, DATA).whenComplete((p, e) -> window.release()));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
    }

    private static void rawGetAsync(ZooKeeper zk, String base, int n) throws InterruptedException {
        Semaphore window = new Semaphore(IN_FLIGHT);
        CountDownLatch done = new CountDownLatch(n);
        AsyncCallback.DataCallback cb = (rc, p, c, data, stat) -> {
            window.release();
            done.countDown();
        };
        for (int i = 0; i < n; i++) {
            window.acquire();
            zk.getData(base, false, cb, null);
        }
        done.await();
    }

    private static void batonGetAsync(BatonClient c, String base, int n) throws InterruptedException {
        Semaphore window = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<byte[]>> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            window.acquire();
            all.add(c.getData().forPathAsync(base).whenComplete((d, e) -> window.release()));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
    }
}

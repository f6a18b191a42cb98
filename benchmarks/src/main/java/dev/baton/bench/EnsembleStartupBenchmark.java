package dev.baton.bench;

import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Start-up of a three-server ensemble until its first committed write: Baton's
 * {@code EmbeddedEnsemble} against Curator's {@code TestingCluster}, alternating, in one JVM.
 *
 * <p>The clock runs from "build and start the ensemble" until a plain ZooKeeper client connected
 * to all three servers has created a node (so a leader is elected and a quorum acknowledged the
 * write). The first round of each is a warm-up (class loading) and is reported apart.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar startup [rounds]} (default 10).
 */
public final class EnsembleStartupBenchmark {
    private EnsembleStartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        double[] baton = new double[rounds];
        double[] curator = new double[rounds];
        double batonCold = timeBaton();
        double curatorCold = timeCurator();
        for (int i = 0; i < rounds; i++) {
            baton[i] = timeBaton();
            curator[i] = timeCurator();
        }
        Stats b = Stats.of(baton);
        Stats c = Stats.of(curator);
        System.out.printf("3-node ensemble start until first committed write, %d warm rounds each (ms)%n", rounds);
        System.out.printf("%-34s %8s %8s %8s %8s%n", "", "cold", "min", "median", "max");
        System.out.printf("%-34s %8.0f %8.0f %8.0f %8.0f%n", "Baton EmbeddedEnsemble(3)", batonCold, b.min(), b.median(), b.max());
        System.out.printf("%-34s %8.0f %8.0f %8.0f %8.0f%n", "Curator TestingCluster(3)", curatorCold, c.min(), c.median(), c.max());
        System.out.printf("median ratio Curator/Baton: %.2f (above 1 means Baton starts faster)%n", c.median() / b.median());
    }

    private static double timeBaton() throws IOException, KeeperException, InterruptedException {
        long start = System.nanoTime();
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).build()) {
            ensemble.start();
            firstWrite(ensemble.connectString());
            return (System.nanoTime() - start) / 1e6;
        }
    }

    /** Throws {@code Exception} because Curator's {@code TestingCluster.start()} declares it (so does {@code main}). */
    private static double timeCurator() throws Exception {
        long start = System.nanoTime();
        try (TestingCluster cluster = new TestingCluster(3)) {
            cluster.start();
            firstWrite(cluster.getConnectString());
            return (System.nanoTime() - start) / 1e6;
        }
    }

    private static void firstWrite(String connectString) throws IOException, KeeperException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 10_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        try {
            if (!connected.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no connection to " + connectString);
            }
            while (true) {
                try {
                    zk.create("/first-write", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                    return;
                } catch (KeeperException.ConnectionLossException e) {
                    // the server accepted the connection before the quorum formed; try again
                }
            }
        } finally {
            zk.close();
        }
    }
}

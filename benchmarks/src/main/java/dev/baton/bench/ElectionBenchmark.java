package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.election.LeaderLatchListener;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.SessionKiller;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooKeeper;

/**
 * Leader failover: how long from the leader leaving until the next participant's {@code
 * isLeader()} runs, Baton's {@code LeaderLatch} against Curator's, alternating rounds, on one
 * three-server in-process ensemble with {@code forceSync}.
 *
 * <p>Three participants per library, each on its own client. Graceful: the clock starts just
 * before {@code close()} on the leader (each library's default close: Baton's tells the
 * listeners before deleting the node, Curator's tells nobody; Baton's {@code close(SILENT)} is
 * measured too) and stops in the next leader's {@code isLeader()}; the closed participant then
 * joins again at the back. Session
 * expiry: the clock starts just before the servers are told to end the leader's session
 * ({@code SessionKiller}: attach to the session and close it) and stops the same way; the victim's
 * client builds a new session and its latch joins again. The first rounds are warm-up.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar election [gracefulRounds] [expiryRounds]}
 * (default 20 and 10).
 */
public final class ElectionBenchmark {
    private static final int PARTICIPANTS = 3;
    private static final int WARM_UP = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private ElectionBenchmark() {
    }

    /**
     * One library's participants in one election. Some methods throw {@code Exception} because
     * Curator's {@code LeaderLatch.start()}, {@code getZooKeeper()} and {@code forPath()} declare it.
     */
    private interface Side {
        String name();

        void start(int participant) throws Exception;

        boolean leads(int participant);

        void close(int participant) throws IOException;

        void expire(int participant, String connectString) throws Exception;

        int inLine() throws Exception;

        /** Completes with System.nanoTime() when the next isLeader() runs. */
        CompletableFuture<Long> nextGrant();

        void shutdown();
    }

    public static void main(String[] args) throws Exception {
        int graceful = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int expiry = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            String connect = ensemble.connectString();
            Side baton = new BatonSide(connect, "/bench/election/baton", LeaderLatch.CloseMode.NOTIFY_LEADER);
            Side silent = new BatonSide(connect, "/bench/election/baton-silent", LeaderLatch.CloseMode.SILENT);
            Side curator = new CuratorSide(connect);
            try {
                for (int i = 0; i < PARTICIPANTS; i++) {
                    baton.start(i);
                    silent.start(i);
                    curator.start(i);
                }
                for (int i = 0; i < WARM_UP; i++) {
                    gracefulFailover(baton);
                    gracefulFailover(silent);
                    gracefulFailover(curator);
                }
                double[][] closeTimes = new double[3][graceful];
                for (int i = 0; i < graceful; i++) {
                    closeTimes[0][i] = gracefulFailover(baton);
                    closeTimes[1][i] = gracefulFailover(curator);
                    closeTimes[2][i] = gracefulFailover(silent);
                }
                double[][] expiryTimes = new double[2][expiry];
                for (int i = 0; i < expiry; i++) {
                    expiryTimes[0][i] = expiryFailover(baton, connect);
                    expiryTimes[1][i] = expiryFailover(curator, connect);
                }
                report(graceful, expiry, closeTimes, expiryTimes);
            } finally {
                baton.shutdown();
                silent.shutdown();
                curator.shutdown();
            }
        }
    }

    private static double gracefulFailover(Side side) throws Exception {
        int leader = awaitReady(side);
        CompletableFuture<Long> granted = side.nextGrant();
        long start = System.nanoTime();
        side.close(leader);
        double millis = (granted.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS) - start) / 1e6;
        side.start(leader);
        return millis;
    }

    private static double expiryFailover(Side side, String connect) throws Exception {
        int leader = awaitReady(side);
        CompletableFuture<Long> granted = side.nextGrant();
        long start = System.nanoTime();
        side.expire(leader, connect);
        return (granted.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS) - start) / 1e6;
    }

    /** Waits until every participant is in line and exactly one leads; returns the leader. */
    private static int awaitReady(Side side) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            int leader = -1;
            int leaders = 0;
            for (int i = 0; i < PARTICIPANTS; i++) {
                if (side.leads(i)) {
                    leader = i;
                    leaders++;
                }
            }
            if (leaders == 1 && side.inLine() == PARTICIPANTS) {
                return leader;
            }
            Thread.sleep(1); // a benchmark's set-up between measured rounds, not a test
        }
        throw new IllegalStateException(side.name() + ": not ready within " + TIMEOUT);
    }

    private static void report(int graceful, int expiry, double[][] closeTimes, double[][] expiryTimes) {
        Stats batonClose = Stats.of(closeTimes[0]);
        Stats curatorClose = Stats.of(closeTimes[1]);
        Stats silentClose = Stats.of(closeTimes[2]);
        Stats batonExpiry = Stats.of(expiryTimes[0]);
        Stats curatorExpiry = Stats.of(expiryTimes[1]);
        System.out.printf("Leader failover, 3-node in-process ensemble (forceSync), %d participants per library (ms)%n", PARTICIPANTS);
        System.out.printf("%-44s %8s %8s %8s %8s%n", "", "min", "median", "p99", "max");
        row("graceful close, Baton LeaderLatch (" + graceful + ")", batonClose);
        row("  the same, close(SILENT)", silentClose);
        row("graceful close, Curator LeaderLatch (" + graceful + ")", curatorClose);
        row("session expiry, Baton LeaderLatch (" + expiry + ")", batonExpiry);
        row("session expiry, Curator LeaderLatch (" + expiry + ")", curatorExpiry);
        System.out.printf("median ratio Curator/Baton: graceful %.2f, session expiry %.2f (above 1 means Baton hands over faster)%n",
            curatorClose.median() / batonClose.median(), curatorExpiry.median() / batonExpiry.median());
    }

    private static void row(String name, Stats stats) {
        System.out.printf("%-44s %8.2f %8.2f %8.2f %8.2f%n", name, stats.min(), stats.median(), stats.percentile(99), stats.max());
    }

    private static final class BatonSide implements Side {
        private final String path;
        private final LeaderLatch.CloseMode closeMode;
        private final BatonClient[] clients = new BatonClient[PARTICIPANTS];
        private final LeaderLatch[] latches = new LeaderLatch[PARTICIPANTS];
        private volatile CompletableFuture<Long> grant = new CompletableFuture<>();

        BatonSide(String connect, String path, LeaderLatch.CloseMode closeMode) throws InterruptedException {
            this.path = path;
            this.closeMode = closeMode;
            for (int i = 0; i < PARTICIPANTS; i++) {
                clients[i] = BatonClient.builder().connectString(Lan.route(connect)).sessionTimeout(Duration.ofSeconds(10)).build();
                clients[i].start();
                if (!clients[i].blockUntilConnected(TIMEOUT)) {
                    throw new IllegalStateException("Baton client did not connect");
                }
            }
        }

        public String name() {
            return "Baton";
        }

        public void start(int participant) {
            LeaderLatch latch = new LeaderLatch(clients[participant], path, "baton-" + participant);
            latch.addListener(LeaderLatchListener.of(token -> grant.complete(System.nanoTime()), () -> { }));
            latches[participant] = latch;
            latch.start();
        }

        public boolean leads(int participant) {
            return latches[participant].hasLeadership();
        }

        public void close(int participant) {
            latches[participant].close(closeMode);
        }

        public void expire(int participant, String connectString) throws InterruptedException {
            SessionKiller.expire(clients[participant], connectString, TIMEOUT);
        }

        public int inLine() throws InterruptedException {
            return clients[0].getChildren().forPath(path).size();
        }

        public CompletableFuture<Long> nextGrant() {
            grant = new CompletableFuture<>();
            return grant;
        }

        public void shutdown() {
            for (int i = 0; i < PARTICIPANTS; i++) {
                latches[i].close();
                clients[i].close();
            }
        }
    }

    private static final class CuratorSide implements Side {
        private static final String PATH = "/bench/election/curator";
        private final CuratorFramework[] clients = new CuratorFramework[PARTICIPANTS];
        private final org.apache.curator.framework.recipes.leader.LeaderLatch[] latches =
            new org.apache.curator.framework.recipes.leader.LeaderLatch[PARTICIPANTS];
        private volatile CompletableFuture<Long> grant = new CompletableFuture<>();

        CuratorSide(String connect) throws InterruptedException {
            for (int i = 0; i < PARTICIPANTS; i++) {
                clients[i] = CuratorFrameworkFactory.newClient(Lan.route(connect), 10_000, 15_000, new ExponentialBackoffRetry(100, 5));
                clients[i].start();
                if (!clients[i].blockUntilConnected((int) TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("Curator client did not connect");
                }
            }
        }

        public String name() {
            return "Curator";
        }

        public void start(int participant) throws Exception {
            var latch = new org.apache.curator.framework.recipes.leader.LeaderLatch(clients[participant], PATH, "curator-" + participant);
            latch.addListener(new org.apache.curator.framework.recipes.leader.LeaderLatchListener() {
                @Override
                public void isLeader() {
                    grant.complete(System.nanoTime());
                }

                @Override
                public void notLeader() {
                    // not measured
                }
            });
            latches[participant] = latch;
            latch.start();
        }

        public boolean leads(int participant) {
            return latches[participant].hasLeadership();
        }

        public void close(int participant) throws IOException {
            latches[participant].close();
        }

        public void expire(int participant, String connectString) throws Exception {
            ZooKeeper zk = clients[participant].getZookeeperClient().getZooKeeper();
            SessionKiller.expire(zk, connectString, TIMEOUT);
        }

        public int inLine() throws Exception {
            return clients[0].getChildren().forPath(PATH).size();
        }

        public CompletableFuture<Long> nextGrant() {
            grant = new CompletableFuture<>();
            return grant;
        }

        public void shutdown() {
            for (int i = 0; i < PARTICIPANTS; i++) {
                try {
                    latches[i].close();
                } catch (Exception e) {
                    // closing anyway
                }
                clients[i].close();
            }
        }
    }
}

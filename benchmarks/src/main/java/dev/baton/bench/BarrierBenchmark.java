package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.barrier.DistributedDoubleBarrier;
import dev.baton.server.EmbeddedEnsemble;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The double barrier's {@code enter}: how long after the last member arrives every member is
 * through, for N = 2, 5, 10 and 20 members (each on a client of its own), Baton against Curator
 * 5.9.0 and against a raw floor, in one JVM on one three-server ensemble with
 * {@code forceSync(true)}.
 *
 * <p>A round: N − 1 members call {@code enter} and wait (each in a thread of its own); once all of
 * them are counted under the barrier's node and have had 100 ms to park on their watches, the
 * last member calls {@code enter}; the time is from that call until the last of the N calls
 * returned. Then every member leaves (not timed), and the next way's round runs: the three ways
 * alternate round by round.
 *
 * <p>The floor ("raw") is the least a double barrier's enter can do on the plain client: each
 * member creates its ephemeral node and waits on an exists-watch of {@code ready}; the last one
 * lists the children, sees N and creates {@code ready}; the others return on its event, reading
 * nothing. It does not survive what the recipes survive (a member gone between the count and
 * {@code ready}, a {@code ready} of the previous round still standing), so it is the limit, not a
 * peer.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar barrier [rounds]} (default 30).
 */
public final class BarrierBenchmark {
    private static final int WARMUP_ROUNDS = 5;
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long WAIT_SECONDS = 60;

    private BarrierBenchmark() {
    }

    /** One member of one way: enter and leave, blocking. */
    private interface Member {
        void enter() throws Exception;

        void leave() throws Exception;

        /** A member of a recipe whose enter and leave return nothing worth keeping. */
        static Member of(Step enter, Step leave) {
            return new Member() {
                @Override
                public void enter() throws Exception {
                    enter.run();
                }

                @Override
                public void leave() throws Exception {
                    leave.run();
                }
            };
        }
    }

    /**
     * Runs the benchmark.
     *
     * @param args optionally the number of measured rounds per way and N (default 30)
     * @throws Exception if ZooKeeper fails (the plain client's methods throw checked exceptions)
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            String connect = ensemble.connectString();
            System.out.printf("double barrier enter, 3 servers (forceSync): from the last member's call until every member is"
                + " through, ms, %d rounds per way after %d warm-up rounds%n", rounds, WARMUP_ROUNDS);
            System.out.printf("%-30s %4s %10s %10s %10s%n", "", "N", "p50", "p90", "max");
            for (int n : new int[] {2, 5, 10, 20}) {
                compare(connect, n, rounds);
            }
        }
    }

    private static void compare(String connect, int n, int rounds) throws Exception {
        List<BatonClient> batons = new ArrayList<>();
        List<CuratorFramework> curators = new ArrayList<>();
        List<ZooKeeper> raws = new ArrayList<>();
        try {
            ZooKeeper lister = Clients.raw(connect);
            raws.add(lister);
            List<Member> baton = new ArrayList<>();
            List<Member> curator = new ArrayList<>();
            List<Member> raw = new ArrayList<>();
            String batonPath = "/bench-barrier-baton-" + n;
            String curatorPath = "/bench-barrier-curator-" + n;
            String rawPath = "/bench-barrier-raw-" + n;
            Clients.folder(lister, rawPath);
            for (int i = 0; i < n; i++) {
                BatonClient b = Clients.baton(connect);
                batons.add(b);
                DistributedDoubleBarrier bm = new DistributedDoubleBarrier(b, batonPath, n);
                baton.add(Member.of(bm::enter, bm::leave));
                CuratorFramework c = Clients.curator(connect);
                curators.add(c);
                var cm = new org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier(c, curatorPath, n);
                curator.add(Member.of(cm::enter, cm::leave));
                ZooKeeper z = Clients.raw(connect);
                raws.add(z);
                raw.add(new RawMember(z, rawPath, n));
            }
            List<Double> batonMs = new ArrayList<>();
            List<Double> curatorMs = new ArrayList<>();
            List<Double> rawMs = new ArrayList<>();
            for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
                double b = round(lister, batonPath, baton);
                double c = round(lister, curatorPath, curator);
                double f = round(lister, rawPath, raw);
                if (r >= 0) {
                    batonMs.add(b);
                    curatorMs.add(c);
                    rawMs.add(f);
                }
                // the raw floor's ready is cleared by the harness between rounds: it has no round protocol
                try {
                    lister.delete(rawPath + "/ready", -1);
                } catch (KeeperException.NoNodeException gone) {
                    // never made: nothing to clear
                }
            }
            Stats sb = Stats.of(batonMs);
            Stats sc = Stats.of(curatorMs);
            Stats sf = Stats.of(rawMs);
            System.out.printf("%-30s %4d %10.2f %10.2f %10.2f%n", "Baton   DistributedDoubleBarrier", n, sb.median(), sb.percentile(90), sb.max());
            System.out.printf("%-30s %4d %10.2f %10.2f %10.2f%n", "Curator DistributedDoubleBarrier", n, sc.median(), sc.percentile(90), sc.max());
            System.out.printf("%-30s %4d %10.2f %10.2f %10.2f%n", "raw     floor", n, sf.median(), sf.percentile(90), sf.max());
            System.out.printf("%-30s %4d %10.2f %10.2f   (p50, p90)%n", "  Baton / Curator", n, sb.median() / sc.median(),
                sb.percentile(90) / sc.percentile(90));
            System.out.printf("%-30s %4d %10.2f %10.2f   (p50, p90)%n", "  Baton / raw", n, sb.median() / sf.median(),
                sb.percentile(90) / sf.percentile(90));
        } finally {
            batons.forEach(BatonClient::close);
            curators.forEach(CuratorFramework::close);
            raws.forEach(Clients::closeQuietly);
        }
    }

    /** One round of one way; ms from the last member's call until every enter returned. */
    private static double round(ZooKeeper lister, String path, List<Member> members) throws Exception {
        int n = members.size();
        List<CompletableFuture<Long>> entered = new ArrayList<>();
        for (int i = 0; i < n - 1; i++) {
            Member m = members.get(i);
            entered.add(CompletableFuture.supplyAsync(() -> timed(m::enter)));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (memberCount(lister, path) < n - 1) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(path + ": " + (n - 1) + " members not counted within " + WAIT_SECONDS + " s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
        LockSupport.parkNanos(PARK_NANOS); // every waiter parked on its watch, not still reading
        long arrival = System.nanoTime();
        entered.add(CompletableFuture.supplyAsync(() -> timed(members.get(n - 1)::enter)));
        long last = 0;
        for (CompletableFuture<Long> e : entered) {
            last = Math.max(last, e.get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
        List<CompletableFuture<Long>> left = new ArrayList<>();
        for (Member m : members) {
            left.add(CompletableFuture.supplyAsync(() -> timed(m::leave)));
        }
        for (CompletableFuture<Long> l : left) {
            l.get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        return (last - arrival) / 1e6;
    }

    /** Children that are members (UUID-named, as all three ways name them), or 0 if the barrier's node is not there yet. */
    private static int memberCount(ZooKeeper lister, String path) throws KeeperException, InterruptedException {
        try {
            return (int) lister.getChildren(path, false).stream().filter(c -> c.length() == 36).count();
        } catch (KeeperException.NoNodeException notYet) {
            return 0;
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static long timed(Step step) {
        try {
            step.run();
            return System.nanoTime();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The floor: create, watch {@code ready}; the N-th creates it. Leave: delete and wait until no member is left. */
    private static final class RawMember implements Member {
        private final ZooKeeper zk;
        private final String path;
        private final String ready;
        private final int n;
        private String node;

        RawMember(ZooKeeper zk, String path, int n) {
            this.zk = zk;
            this.path = path;
            this.ready = path + "/ready";
            this.n = n;
        }

        @Override
        public void enter() throws Exception {
            node = path + "/" + UUID.randomUUID();
            zk.create(node, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            CountDownLatch made = new CountDownLatch(1);
            if (zk.exists(ready, e -> made.countDown()) != null) {
                return;
            }
            if (memberCount(zk, path) >= n) {
                try {
                    zk.create(ready, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                } catch (KeeperException.NodeExistsException another) {
                    // a member counted at the same moment made it
                }
                return;
            }
            if (!made.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("raw floor: no ready within " + WAIT_SECONDS + " s");
            }
        }

        @Override
        public void leave() throws Exception {
            zk.delete(node, -1);
            while (true) {
                CountDownLatch changed = new CountDownLatch(1);
                long members = zk.getChildren(path, e -> changed.countDown()).stream().filter(c -> c.length() == 36).count();
                if (members == 0) {
                    return;
                }
                if (!changed.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("raw floor: members left after " + WAIT_SECONDS + " s");
                }
            }
        }
    }
}

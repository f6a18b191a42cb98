package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.group.GroupMember;
import dev.baton.recipes.group.IdAllocator;
import dev.baton.server.EmbeddedEnsemble;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * recipes-group, on one three-server ensemble with {@code forceSync(true)}, in one JVM:
 *
 * <ol>
 *   <li>Ids per second from one process: {@link IdAllocator} with blocks of 1, 100 and 10,000 and
 *       in strictly monotonic mode, against the obvious alternative — one sequential create per
 *       id, its sequence number being the id (the classic naming example), on the plain client.
 *       Each phase runs for a fixed time on 1 thread (and blocks of 10,000 on 4 threads too);
 *       ids/s and the writes each id cost are printed.</li>
 *   <li>Membership propagation: a member joins (a new {@link GroupMember} started on its own
 *       client) and the time until every one of 4 observing members, on 4 other clients, lists it
 *       in {@code getCurrentMembers()}; then it leaves and the same for its departure. Baton's and
 *       Curator 5.9's GroupMember alternate rounds, observed by the same polling loop.</li>
 * </ol>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar group [seconds-per-phase] [rounds]}
 * (default 3 and 30).
 *
 * <p>Methods that call Curator declare {@code Exception}, because Curator's methods do.
 */
public final class GroupBenchmark {
    private static final int OBSERVERS = 4;
    private static final int WARMUP_ROUNDS = 5;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final byte[] DATA = "10.0.0.1:8080".getBytes(StandardCharsets.UTF_8);

    private GroupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            String connect = ensemble.connectString();
            ids(connect, Duration.ofSeconds(seconds));
            propagation(connect, rounds);
        }
    }

    // ---- ids per second ----

    private static void ids(String connect, Duration phase) throws Exception {
        System.out.printf("Ids per second from one process, %d s per phase after a 1 s warm-up (3 servers, fsync on)%n", phase.toSeconds());
        System.out.printf("%-44s %14s %14s %12s%n", "", "ids/s", "writes/id", "vs create");
        ZooKeeper raw = Clients.raw(connect);
        double perCreate;
        try {
            Clients.folder(raw, "/bench-seq");
            Supplier<Long> create = () -> {
                try {
                    String path = raw.create("/bench-seq/id-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
                    return Long.parseLong(path.substring(path.length() - 10));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
            run(create, Duration.ofSeconds(1), 1);
            Result r = run(create, phase, 1);
            perCreate = r.perSecond();
            print("one sequential create per id (plain client)", r.perSecond(), 1.0, perCreate);
        } finally {
            Clients.closeQuietly(raw);
        }
        try (BatonClient client = Clients.baton(connect)) {
            for (int block : new int[] {1, 100, 10_000}) {
                idPhase(client, "IdAllocator, blocks of " + String.format("%,d", block), "/bench-ids/b" + block,
                    IdAllocator.builder(client, "/bench-ids/b" + block).blockSize(block).build(), phase, 1, perCreate);
            }
            idPhase(client, "IdAllocator, blocks of 10,000, 4 threads", "/bench-ids/b10000x4",
                IdAllocator.builder(client, "/bench-ids/b10000x4").blockSize(10_000).build(), phase, 4, perCreate);
            idPhase(client, "IdAllocator, strictly monotonic", "/bench-ids/strict",
                IdAllocator.builder(client, "/bench-ids/strict").strictlyMonotonic().build(), phase, 1, perCreate);
        }
        System.out.println();
    }

    private static void idPhase(BatonClient client, String name, String path, IdAllocator allocator, Duration phase, int threads,
                                double perCreate) throws InterruptedException {
        Supplier<Long> next = () -> {
            try {
                return allocator.next();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        };
        run(next, Duration.ofSeconds(1), threads);
        int versionBefore = client.checkExists().forPath(path).getVersion();
        Result r = run(next, phase, threads);
        int writes = client.checkExists().forPath(path).getVersion() - versionBefore;
        print(name, r.perSecond(), (double) writes / r.count(), perCreate);
    }

    private record Result(long count, double perSecond) {
    }

    /** Calls {@code next} on {@code threads} threads for {@code length}; the ids handed out and their rate. */
    private static Result run(Supplier<Long> next, Duration length, int threads) throws InterruptedException {
        LongAdder count = new LongAdder();
        LongAdder sink = new LongAdder();
        long end = System.nanoTime() + length.toNanos();
        List<Thread> workers = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                long n = 0;
                long acc = 0;
                while (true) {
                    for (int i = 0; i < 64; i++) {
                        acc += next.get();
                    }
                    n += 64;
                    if (System.nanoTime() >= end) {
                        break;
                    }
                }
                count.add(n);
                sink.add(acc);
            }, "bench-ids-" + t);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result(count.sum(), count.sum() / seconds);
    }

    private static void print(String name, double perSecond, double writesPerId, double perCreate) {
        System.out.printf("%-44s %,14.0f %14.5f %11.0fx%n", name, perSecond, writesPerId, perSecond / perCreate);
    }

    // ---- membership propagation ----

    private static void propagation(String connect, int rounds) throws Exception {
        List<BatonClient> batonClients = new ArrayList<>();
        List<CuratorFramework> curatorClients = new ArrayList<>();
        List<GroupMember> batonObservers = new ArrayList<>();
        List<org.apache.curator.framework.recipes.nodes.GroupMember> curatorObservers = new ArrayList<>();
        try {
            for (int i = 0; i <= OBSERVERS; i++) {
                batonClients.add(Clients.baton(connect));
                curatorClients.add(Clients.curator(connect));
            }
            for (int i = 1; i <= OBSERVERS; i++) {
                GroupMember b = new GroupMember(batonClients.get(i), "/bench-group-baton", "observer-" + i, DATA);
                b.start();
                batonObservers.add(b);
                org.apache.curator.framework.recipes.nodes.GroupMember c =
                    new org.apache.curator.framework.recipes.nodes.GroupMember(curatorClients.get(i), "/bench-group-curator", "observer-" + i, DATA);
                c.start();
                curatorObservers.add(c);
            }
            awaitTrue(() -> batonObservers.stream().allMatch(o -> o.getCurrentMembers().size() == OBSERVERS)
                && curatorObservers.stream().allMatch(o -> o.getCurrentMembers().size() == OBSERVERS));
            double[] bJoin = new double[rounds];
            double[] bLeave = new double[rounds];
            double[] cJoin = new double[rounds];
            double[] cLeave = new double[rounds];
            for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
                String id = "joiner-" + (r + WARMUP_ROUNDS);
                BatonClient joinerClient = batonClients.get(0);
                double[] b = round(() -> {
                    GroupMember m = new GroupMember(joinerClient, "/bench-group-baton", id, DATA);
                    m.start();
                    return m::close;
                }, () -> batonObservers.stream().map(GroupMember::getCurrentMembers).toList(), id);
                CuratorFramework curatorJoiner = curatorClients.get(0);
                double[] c = round(() -> {
                    var m = new org.apache.curator.framework.recipes.nodes.GroupMember(curatorJoiner, "/bench-group-curator", id, DATA);
                    m.start();
                    return m::close;
                }, () -> curatorObservers.stream().map(org.apache.curator.framework.recipes.nodes.GroupMember::getCurrentMembers).toList(), id);
                if (r >= 0) {
                    bJoin[r] = b[0];
                    bLeave[r] = b[1];
                    cJoin[r] = c[0];
                    cLeave[r] = c[1];
                }
            }
            System.out.printf("Membership propagation: from start() (close()) of a member until all %d observers list it (no longer list it), ms "
                + "(%d rounds after %d warm-up)%n", OBSERVERS, rounds, WARMUP_ROUNDS);
            System.out.printf("%-34s %10s %10s %10s %10s%n", "", "median", "p90", "min", "max");
            row("Baton   GroupMember, join", Stats.of(bJoin));
            row("Curator GroupMember, join", Stats.of(cJoin));
            row("Baton   GroupMember, leave", Stats.of(bLeave));
            row("Curator GroupMember, leave", Stats.of(cLeave));
            System.out.printf("median ratio Curator/Baton: join %.2f, leave %.2f (above 1 means Baton propagates faster)%n",
                Stats.of(cJoin).median() / Stats.of(bJoin).median(), Stats.of(cLeave).median() / Stats.of(bLeave).median());
        } finally {
            batonObservers.forEach(GroupMember::close);
            for (var c : curatorObservers) {
                c.close();
            }
            batonClients.forEach(BatonClient::close);
            curatorClients.forEach(CuratorFramework::close);
        }
    }

    /** A member that joined; closing it leaves. */
    @FunctionalInterface
    private interface Joined {
        void leave() throws Exception;
    }

    @FunctionalInterface
    private interface Join {
        Joined join() throws Exception;
    }

    /** {join propagation, leave propagation} in ms. */
    private static double[] round(Join join, Supplier<List<Map<String, byte[]>>> views, String id) throws Exception {
        long start = System.nanoTime();
        Joined member = join.join();
        awaitTrue(() -> views.get().stream().allMatch(v -> v.containsKey(id)));
        double joined = (System.nanoTime() - start) / 1e6;
        long leaving = System.nanoTime();
        member.leave();
        awaitTrue(() -> views.get().stream().noneMatch(v -> v.containsKey(id)));
        double left = (System.nanoTime() - leaving) / 1e6;
        return new double[] {joined, left};
    }

    /** Checks every 50 µs: the join and leave times are taken when this notices. */
    private static void awaitTrue(BooleanSupplier condition) {
        Waits.until(condition, WAIT, TimeUnit.MICROSECONDS.toNanos(50));
    }

    private static void row(String name, Stats s) {
        System.out.printf("%-34s %10.2f %10.2f %10.2f %10.2f%n", name, s.median(), s.percentile(90), s.min(), s.max());
    }
}

package dev.baton.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.recipes.config.AtomicValue;
import dev.baton.recipes.config.ConfigStore;
import dev.baton.recipes.config.DistributedAtomicLong;
import dev.baton.server.EmbeddedEnsemble;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.NodeCache;
import org.apache.curator.framework.recipes.shared.SharedValue;
import org.apache.curator.framework.recipes.shared.SharedValueListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * The configuration recipes, Baton against the plain ZooKeeper client (the limit) and Curator 5.9.0
 * (the peer), in one JVM on one three-server ensemble with {@code forceSync(true)}:
 *
 * <ol>
 *   <li>Propagation: from the start of a write on one client until each of N watching clients
 *       (N = 1, 10, 50, each on a client of its own) has been told the new value, in ms, p50 and
 *       p99 over every watcher of every round. Baton: a {@code ConfigStore} release of one key
 *       (one transaction with the history entry and the fence), and a plain {@code set}, each
 *       watched by {@code ConfigStore.watchKey} (the writer's own store is started, so a release
 *       starts from its snapshot); Curator: {@code SharedValue.setValue} watched by
 *       {@code SharedValue} listeners, and a {@code setData} watched by {@code NodeCache}
 *       listeners; raw: a {@code setData} watched by the hand-written watcher that reads again
 *       with a new watch on each event; raw release-shaped: the release's transaction on the plain
 *       client, each watcher reading the key and the fence in one multi of reads on the key's event (see
 *       {@link #rawReleaseSide}); and four other layouts' floors in the same style
 *       ({@link #rawLayoutSide}), to tell which layout change could bring a release to
 *       {@code SharedValue}: (a) the fence outside the watched subtree (the history folder's own
 *       data), so a watcher is told of the key alone, one event per release; (b) the current
 *       layout without the deletion of the oldest history entry (a transaction of three); (c)
 *       both; (d) the history in ten slots made once, each release setting the data of its slot
 *       (no create, no delete), the fence outside; and (0), the current layout again, their
 *       control. The release and the {@code set} each have a store (a base path) of their own, as
 *       each Curator way has its own node. Rounds alternate between the eleven ways: the first six
 *       in a fixed order, then the five floors in a new order each round (seeded), since the way
 *       that follows {@code NodeCache}'s rounds — the raw release-shaped row — comes out slower
 *       for it: compare the floors with (0), not with that row. Before all rows, 300 rounds of
 *       each way with one watcher compile the code; then in each row the first ten are warm-up.
 *       Each row also gives its p99 over the raw one's and over {@code SharedValue}'s; each N, the
 *       release's p50 and p99 over the raw release-shaped row's and over the control's, and each
 *       floor's p50 and p99 over {@code SharedValue}'s.</li>
 *   <li>Cached reads, ns/op, one thread: {@code ConfigStore.getString} and {@code get}, against
 *       Curator's {@code SharedValue.getValue()} and {@code NodeCache.getCurrentData().getData()}
 *       (hand-rolled loop as in the discovery benchmark: 1024 calls between clock reads, 2 s of
 *       warm-up, then ten alternating 200 ms batches each, median); for scale, what one blocking
 *       {@code getData} round trip costs on the plain client.</li>
 *   <li>{@code DistributedAtomicLong.increment()} with 8 clients contending for one counter, each
 *       on its own client and thread, optimistic only, retried without pause: increments/s over
 *       4 s, three alternating runs per side, median; raw: the same 8-byte counter read with
 *       its version and written back at it, in a loop.</li>
 * </ol>
 *
 * <p>First, the requests each way sends per propagation and the watch events the servers send
 * for it, as the servers count them.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar config [rounds] [--propagation|--requests] [--shuffle-all]}
 * (default 200 propagation rounds per N, so that a p99 is not the slowest of a few rounds; {@code --propagation}: only the request counts and the
 * propagation; {@code --requests}: only the request counts; {@code --shuffle-all}: every way of the propagation, not only
 * the floors, in a new order each round — no row then owes its time to the one before it, but the rows are not those of
 * runs without it).
 *
 * <p>Methods that call Curator declare {@code Exception}, because Curator's methods do.
 */
public final class ConfigBenchmark {
    private static final int[] WATCHERS = {1, 10, 50};
    private static final int WARMUP_ROUNDS = 10;
    private static final int REQUEST_ROUNDS = 20;
    private static final int JIT_WARMUP_ROUNDS = 300;
    private static final long BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int CONTENDERS = 8;
    private static final Duration INCREMENT_RUN = Duration.ofSeconds(4);
    private static volatile long sink;
    /** Layout floors made so far: each names its history entries apart from an earlier one's on the same base. */
    private static final AtomicLong SIDES_MADE = new AtomicLong();
    /** The rows of the other layouts' floors ({@link #rawLayoutSide}): a label of 7 characters, then what differs. */
    private static final String[] FLOOR_NAMES = {
        "raw (a) fence outside: 1 event, 4-op multi",
        "raw (b) no delete: 3-op multi, 2 events",
        "raw (c) fence outside, no delete: 3-op, 1 ev",
        "raw (d) history slots, fence outside: 3 sets",
        "raw (0) as release-shaped, shuffled: control"};
    /** The first of the layouts' floors in the propagation's list of ways: these go in a new order each round. */
    private static final int FIRST_FLOOR = 6;

    private ConfigBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        // --propagation: only the request counts and the propagation (the rest takes a minute more); --shuffle-all: see above
        boolean all = !List.of(args).contains("--propagation");
        // from the first way, or from the floors on, the ways go in a new order each round
        int firstShuffled = List.of(args).contains("--shuffle-all") ? 0 : FIRST_FLOOR;
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            String connect = ensemble.connectString();
            requests(ensemble, REQUEST_ROUNDS);
            if (List.of(args).contains("--requests")) {
                return;
            }
            propagation(connect, rounds, firstShuffled);
            if (all) {
                cachedReads(connect);
                increments(connect);
            }
        }
    }

    // ---- propagation ----

    /** One way to write the value and one set of watchers of it, with their arrival times for the current round. */
    private abstract static class Side implements AutoCloseable {
        final String name;
        AtomicLongArray seen;
        volatile String expected = "";
        final List<Double> writeMs = new ArrayList<>();

        Side(String name) {
            this.name = name;
        }

        void heard(int watcher, String value) {
            if (value.equals(expected)) {
                seen.compareAndSet(watcher, 0, System.nanoTime());
            }
        }

        abstract void write(String value) throws Exception;
    }

    private static void propagation(String connect, int rounds, int firstShuffled) throws Exception {
        System.out.printf("Propagation: from the start of a write until each of N watchers (each on its own client) is told, ms;%n"
            + "p50 and p99 over every watcher of %d rounds per row after %d warm-up rounds (and, before all rows, %d rounds of each way%n"
            + "with one watcher to compile the code); write call: its median alone;%n"
            + "p99/raw and p99/C.SV: p99 over the raw watcher's and over Curator SharedValue's (below 1: sooner)%n",
            rounds, WARMUP_ROUNDS, JIT_WARMUP_ROUNDS);
        System.out.printf("%-44s %4s %10s %10s %10s %12s %10s %10s%n", "", "N", "p50", "p99", "max", "write call", "p99/raw",
            "p99/C.SV");
        // first JIT_WARMUP_ROUNDS rounds of each way with one watcher, not reported: a release runs more client code than a
        // setData (JSON, the transaction), and run interpreted it took twice a set's time; the rows compare compiled code
        List<int[]> runs = new ArrayList<>();
        runs.add(new int[] {1, JIT_WARMUP_ROUNDS, 0});
        for (int n : WATCHERS) {
            runs.add(new int[] {n, rounds, 1});
        }
        for (int[] run : runs) {
            int n = run[0];
            int measured = run[1];
            boolean report = run[2] == 1;
            List<BatonClient> batons = new ArrayList<>();
            List<CuratorFramework> curators = new ArrayList<>();
            List<ZooKeeper> raws = new ArrayList<>();
            List<AutoCloseable> closing = new ArrayList<>();
            try {
                raws.add(Clients.raw(connect));
                BatonClient batonWriter = Clients.baton(connect);
                batons.add(batonWriter);
                CuratorFramework curatorWriter = Clients.curator(connect);
                curators.add(curatorWriter);
                for (int i = 0; i < n; i++) {
                    batons.add(Clients.baton(connect));
                    curators.add(Clients.curator(connect));
                    raws.add(Clients.raw(connect));
                }
                // each Baton way has a store of its own (as each Curator way has its own node): a watcher's store reads what
                // changed in its subtree, so two ways on one store would each make every watcher read the other's writes too
                String releaseBase = "/bench-config-release-" + n;
                String setBase = "/bench-config-set-" + n;
                // the writers' stores are started, as a service's would be: a release starts from its snapshot
                ConfigStore releaseWriter = writerStore(batonWriter, releaseBase, closing);
                ConfigStore setWriter = writerStore(batonWriter, setBase, closing);
                List<Side> sides = List.of(
                    rawSide("raw     setData, getData watch re-set", raws, "/bench-raw-" + n),
                    batonSide("Baton   ConfigStore release, watchKey", releaseWriter, batons, releaseBase, "released", true, closing),
                    batonSide("Baton   ConfigStore set, watchKey", setWriter, batons, setBase, "plain", false, closing),
                    curatorShared("Curator SharedValue.setValue, listeners", curators, "/bench-shared-" + n, closing),
                    curatorNodeCache("Curator setData, NodeCache listeners", curators, "/bench-node-" + n, closing),
                    rawReleaseSide("raw     release-shaped multi, key+fence read", raws, "/bench-rawrelease-" + n),
                    rawLayoutSide(FLOOR_NAMES[0], raws, "/bench-rawfenceout-" + n, new Layout(false, true, false)),
                    rawLayoutSide(FLOOR_NAMES[1], raws, "/bench-rawnodelete-" + n, new Layout(true, false, false)),
                    rawLayoutSide(FLOOR_NAMES[2], raws, "/bench-rawboth-" + n, new Layout(false, false, false)),
                    rawLayoutSide(FLOOR_NAMES[3], raws, "/bench-rawslots-" + n, new Layout(false, false, true)),
                    rawLayoutSide(FLOOR_NAMES[4], raws, "/bench-rawcontrol-" + n, new Layout(true, true, false)));
                List<List<Double>> times = new ArrayList<>();
                sides.forEach(s -> times.add(new ArrayList<>()));
                // the six first ways keep their order; the layouts' floors after them go in a new order each round, so that
                // none is always the one right after another (the way right after NodeCache's rounds is the slower for it)
                Random shuffle = new Random(11);
                List<Integer> order = new ArrayList<>();
                for (int s = 0; s < sides.size(); s++) {
                    order.add(s);
                }
                for (int r = -WARMUP_ROUNDS; r < measured; r++) {
                    Collections.shuffle(order.subList(firstShuffled, sides.size()), shuffle);
                    for (int s : order) {
                        double[] one = round(sides.get(s), n, "r" + r);
                        if (r >= 0) {
                            for (double t : one) {
                                times.get(s).add(t);
                            }
                        }
                    }
                }
                if (!report) {
                    continue;
                }
                // ratios against the raw limit (side 0) and Curator's SharedValue (side 3): below 1 means faster
                Stats raw = Stats.of(times.get(0));
                Stats curator = Stats.of(times.get(3));
                for (int s = 0; s < sides.size(); s++) {
                    Stats st = Stats.of(times.get(s));
                    System.out.printf("%-44s %4d %10.2f %10.2f %10.2f %12.2f %10.2f %10.2f%n", sides.get(s).name, n, st.median(),
                        st.percentile(99), st.max(), Stats.of(sides.get(s).writeMs).median(), st.percentile(99) / raw.percentile(99),
                        st.percentile(99) / curator.percentile(99));
                }
                // the release against the same transaction and reads on the plain client (side 5): what the layout costs itself
                Stats release = Stats.of(times.get(1));
                Stats floor = Stats.of(times.get(5));
                System.out.printf("%-44s %4d %10.2f %10.2f%n", "Baton release over the raw release-shaped row", n,
                    release.median() / floor.median(), release.percentile(99) / floor.percentile(99));
                // and against the same floor in a fair place (the control, last side): the row after NodeCache's pays for them
                Stats control = Stats.of(times.get(sides.size() - 1));
                System.out.printf("%-44s %4d %10.2f %10.2f%n", "Baton release over the control floor (0)", n,
                    release.median() / control.median(), release.percentile(99) / control.percentile(99));
                // each layout's floor (sides 5 on) against SharedValue: which layout, if any, would leave room for Baton's code
                for (int s = 5; s < sides.size(); s++) {
                    Stats st = Stats.of(times.get(s));
                    String label = s == 5 ? "release-shaped" : sides.get(s).name.substring(4, 7);
                    System.out.printf("%-44s %4d %10.2f %10.2f%n", "floor " + label + " over C.SV (p50, p99)", n,
                        st.median() / curator.median(), st.percentile(99) / curator.percentile(99));
                }
            } finally {
                for (AutoCloseable c : closing) {
                    c.close();
                }
                curators.forEach(CuratorFramework::close);
                batons.forEach(BatonClient::close);
                raws.forEach(Clients::closeQuietly);
            }
        }
        System.out.println();
    }

    /**
     * Requests per propagation, counted by the servers: each way in a namespace (first path
     * component) of its own, {@code rounds} rounds after warm-up, and the servers' per-namespace
     * request counters ({@code mntr}: {@code zk_cnt_<namespace>_read_per_namespace} and
     * {@code ..._write_per_namespace}, see {@link #counts}) read before and after. A transaction
     * counts one write per operation in it.
     */
    private static void requests(EmbeddedEnsemble ensemble, int rounds) throws Exception {
        String connect = ensemble.connectString();
        System.out.printf("Requests per propagation (servers' per-namespace counters, %d rounds after warm-up; a transaction counts each of "
            + "its operations)%n",
            rounds);
        System.out.printf("%-44s %4s %14s %14s %14s%n", "", "N", "writes/round", "reads/round", "events/round");
        for (int n : new int[] {1, 10}) {
            List<BatonClient> batons = new ArrayList<>();
            List<CuratorFramework> curators = new ArrayList<>();
            List<ZooKeeper> raws = new ArrayList<>();
            List<AutoCloseable> closing = new ArrayList<>();
            try {
                raws.add(Clients.raw(connect));
                BatonClient batonWriter = Clients.baton(connect);
                batons.add(batonWriter);
                curators.add(Clients.curator(connect));
                for (int i = 0; i < n; i++) {
                    batons.add(Clients.baton(connect));
                    curators.add(Clients.curator(connect));
                    raws.add(Clients.raw(connect));
                }
                String[] names = {"reqraw" + n, "reqrelease" + n, "reqset" + n, "reqshared" + n, "reqnode" + n, "reqrawrel" + n, "reqfenceout" + n,
                    "reqnodelete" + n, "reqboth" + n, "reqslots" + n, "reqcontrol" + n};
                List<Side> sides = new ArrayList<>();
                sides.add(rawSide("raw     setData, getData watch re-set", raws, "/" + names[0]));
                for (int b = 1; b <= 2; b++) {
                    ConfigStore writerStore = ConfigStore.builder(batonWriter, "/" + names[b]).build();
                    closing.add(writerStore);
                    writerStore.start();
                    if (!writerStore.awaitInitialized(WAIT)) {
                        throw new IllegalStateException("the writer's store did not load");
                    }
                    sides.add(b == 1
                        ? batonSide("Baton   ConfigStore release, watchKey", writerStore, batons, "/" + names[b], "k", true, closing)
                        : batonSide("Baton   ConfigStore set, watchKey", writerStore, batons, "/" + names[b], "k", false, closing));
                }
                sides.add(curatorShared("Curator SharedValue.setValue, listeners", curators, "/" + names[3], closing));
                sides.add(curatorNodeCache("Curator setData, NodeCache listeners", curators, "/" + names[4], closing));
                sides.add(rawReleaseSide("raw     release-shaped multi, key+fence read", raws, "/" + names[5]));
                sides.add(rawLayoutSide(FLOOR_NAMES[0], raws, "/" + names[6], new Layout(false, true, false)));
                sides.add(rawLayoutSide(FLOOR_NAMES[1], raws, "/" + names[7], new Layout(true, false, false)));
                sides.add(rawLayoutSide(FLOOR_NAMES[2], raws, "/" + names[8], new Layout(false, false, false)));
                sides.add(rawLayoutSide(FLOOR_NAMES[3], raws, "/" + names[9], new Layout(false, false, true)));
                sides.add(rawLayoutSide(FLOOR_NAMES[4], raws, "/" + names[10], new Layout(true, true, false)));
                for (int s = 0; s < sides.size(); s++) {
                    for (int r = 0; r < WARMUP_ROUNDS; r++) {
                        round(sides.get(s), n, "w" + r);
                    }
                    // the release's history entries are next to its base, in a namespace of their own
                    String history = names[s] + ".history";
                    long[] before = counts(ensemble, names[s]);
                    long[] beforeHistory = counts(ensemble, history);
                    long beforeEvents = events(ensemble);
                    for (int r = 0; r < rounds; r++) {
                        round(sides.get(s), n, "c" + r);
                    }
                    long afterEvents = events(ensemble);
                    long[] after = counts(ensemble, names[s]);
                    long[] afterHistory = counts(ensemble, history);
                    System.out.printf("%-44s %4d %14.2f %14.2f %14.2f%n", sides.get(s).name, n,
                        (after[1] - before[1] + afterHistory[1] - beforeHistory[1]) / (double) rounds,
                        (after[0] - before[0] + afterHistory[0] - beforeHistory[0]) / (double) rounds,
                        (afterEvents - beforeEvents) / (double) rounds);
                }
            } finally {
                for (AutoCloseable c : closing) {
                    c.close();
                }
                curators.forEach(CuratorFramework::close);
                batons.forEach(BatonClient::close);
                raws.forEach(Clients::closeQuietly);
            }
        }
        System.out.println();
    }

    /** The servers' summaries of watchers triggered per node event ({@code sum}: events sent, to all watchers of all clients). */
    private static final List<String> WATCH_SUMS = List.of("zk_sum_node_created_watch_count", "zk_sum_node_changed_watch_count",
        "zk_sum_node_deleted_watch_count", "zk_sum_node_children_watch_count");

    /**
     * The watch events the servers sent, to all clients (so counted with one way running at a
     * time): their summaries of watchers triggered per node event (one JVM's metrics for
     * in-process servers, else summed over the servers).
     */
    private static long events(EmbeddedEnsemble ensemble) throws java.io.IOException {
        long events = 0;
        for (int id = 1; id <= ensemble.size(); id++) {
            java.util.Map<String, Long> m = mntr(ensemble.clientPort(id));
            for (String sum : WATCH_SUMS) {
                events += m.getOrDefault(sum, 0L);
            }
            if (ensemble.mode() == dev.baton.server.ServerMode.IN_PROCESS) {
                break;
            }
        }
        return events;
    }

    /**
     * {reads, writes} of the namespace, from {@code mntr}. In-process servers share one JVM's
     * metrics, so one server's answer counts all three, and every server counts each write it
     * applies: writes are divided by the number of servers. Servers in processes of their own
     * count only what they do: reads are summed, writes taken from the one that applied most.
     */
    private static long[] counts(EmbeddedEnsemble ensemble, String namespace) throws java.io.IOException {
        String readKey = "zk_cnt_" + namespace + "_read_per_namespace";
        String writeKey = "zk_cnt_" + namespace + "_write_per_namespace";
        if (ensemble.mode() == dev.baton.server.ServerMode.IN_PROCESS) {
            java.util.Map<String, Long> m = mntr(ensemble.clientPort(1));
            return new long[] {m.getOrDefault(readKey, 0L), m.getOrDefault(writeKey, 0L) / ensemble.size()};
        }
        long reads = 0;
        long writes = 0;
        for (int id = 1; id <= ensemble.size(); id++) {
            java.util.Map<String, Long> m = mntr(ensemble.clientPort(id));
            reads += m.getOrDefault(readKey, 0L);
            writes = Math.max(writes, m.getOrDefault(writeKey, 0L));
        }
        return new long[] {reads, writes};
    }

    private static java.util.Map<String, Long> mntr(int port) throws java.io.IOException {
        java.util.Map<String, Long> out = new java.util.HashMap<>();
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.getOutputStream().write("mntr".getBytes(UTF_8));
            socket.getOutputStream().flush();
            String text = new String(socket.getInputStream().readAllBytes(), UTF_8);
            for (String line : text.split("\n")) {
                String[] kv = line.split("\t");
                if (kv.length == 2) {
                    try {
                        out.put(kv[0], Long.parseLong(kv[1].trim()));
                    } catch (NumberFormatException notCount) {
                        // a text or fractional value: not a counter
                    }
                }
            }
        }
        return out;
    }

    /** Writes {@code value} with {@code side} and returns each watcher's delay, in ms. */
    private static double[] round(Side side, int n, String value) throws Exception {
        side.seen = new AtomicLongArray(n);
        side.expected = value;
        long start = System.nanoTime();
        side.write(value);
        side.writeMs.add((System.nanoTime() - start) / 1e6);
        awaitTrue(() -> {
            for (int i = 0; i < n; i++) {
                if (side.seen.get(i) == 0) {
                    return false;
                }
            }
            return true;
        });
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            ms[i] = (side.seen.get(i) - start) / 1e6;
        }
        return ms;
    }

    /**
     * The limit: the classic hand-written watcher on the plain client — on each event, read again
     * with a new watch — so a watcher is told one notification and one read after the write.
     */
    private static Side rawSide(String name, List<ZooKeeper> clients, String path) throws Exception {
        ZooKeeper writer = clients.get(0);
        Clients.folder(writer, path);
        Side side = new Side(name) {
            @Override
            void write(String value) throws Exception {
                writer.setData(path, value.getBytes(UTF_8), -1);
            }

            @Override
            public void close() {
            }
        };
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            ZooKeeper zk = clients.get(i);
            Watcher[] rearm = new Watcher[1];
            AsyncCallback.DataCallback heard = (rc, p, ctx, data, stat) -> {
                if (rc == KeeperException.Code.OK.intValue()) {
                    side.heard(watcher, new String(data, UTF_8));
                }
            };
            rearm[0] = event -> zk.getData(path, rearm[0], heard, null);
            Clients.caughtUp(zk, path); // the writer created the node through another server, perhaps
            zk.getData(path, rearm[0], null);
        }
        return side;
    }

    /**
     * The floor for a release with a history and a fence, on the plain client: the writer sends the
     * transaction a one-key release sends (the key, a new history entry next to the base, the
     * deletion of the one past ten, the fence, last); each watcher has a persistent recursive watch
     * on the base (so it gets the key's and the fence's events, as a store does; the history is
     * outside), reads the key and the fence in one multi of reads on the key's event, and counts
     * the value as seen when that answer arrives (the earliest a reader can know the release is
     * whole). No bookkeeping, no ordering checks: what any fenced reader of this layout pays at least.
     */
    private static Side rawReleaseSide(String name, List<ZooKeeper> clients, String base) throws Exception {
        ZooKeeper writer = clients.get(0);
        Clients.folder(writer, base);
        String key = base + "/k";
        String fence = base + "/.releases";
        String history = base + ".history";
        Clients.folder(writer, key);
        Clients.folder(writer, fence);
        Clients.folder(writer, history);
        long[] n = {0};
        // the compile-warm-up run and the N = 1 row share the base: entries of a side made earlier may still be there
        // (before, a run of more than 290 rounds failed on the N = 1 row with NodeExists)
        String entry = history + "/e-" + SIDES_MADE.incrementAndGet() + "-";
        Side side = new Side(name) {
            @Override
            void write(String value) throws Exception {
                n[0]++;
                List<org.apache.zookeeper.Op> ops = new ArrayList<>();
                ops.add(org.apache.zookeeper.Op.setData(key, value.getBytes(UTF_8), -1));
                // a history entry of about the size a one-key release writes
                ops.add(org.apache.zookeeper.Op.create(entry + n[0], new byte[200], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT));
                if (n[0] > 10) {
                    ops.add(org.apache.zookeeper.Op.delete(entry + (n[0] - 10), -1));
                }
                ops.add(org.apache.zookeeper.Op.setData(fence, new byte[80], -1));
                writer.multi(ops);
            }

            @Override
            public void close() {
            }
        };
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            ZooKeeper zk = clients.get(i);
            // one multi of reads, the key and the fence: its answer came after both events of the transaction
            AsyncCallback.MultiCallback read = (rc, p, ctx, results) -> {
                if (rc == KeeperException.Code.OK.intValue() && results.get(0) instanceof org.apache.zookeeper.OpResult.GetDataResult k) {
                    side.heard(watcher, new String(k.getData(), UTF_8));
                }
            };
            List<org.apache.zookeeper.Op> reads = List.of(org.apache.zookeeper.Op.getData(key), org.apache.zookeeper.Op.getData(fence));
            zk.addWatch(base, event -> {
                if (key.equals(event.getPath())) {
                    zk.multi(reads, read, null);
                }
            }, org.apache.zookeeper.AddWatchMode.PERSISTENT_RECURSIVE);
        }
        return side;
    }

    /**
     * A layout of a release for {@link #rawLayoutSide}: where the fence is, whether the transaction
     * deletes the history entry past ten, and how the history is kept.
     *
     * @param fenceInside the fence is {@code <base>/.releases}, inside the watched subtree (a watcher
     *     gets its event too); otherwise the fence is the history folder {@code <base>.history} itself,
     *     its data set by the transaction, outside the watched subtree (one event per one-key release)
     * @param delete the transaction also deletes the history entry past ten (else deletions are left
     *     out: a writer would delete old entries now and then, in a transaction of their own)
     * @param slots the history is ten nodes made once, {@code <base>.history/slot-<n mod 10>}, and a
     *     release sets the data of its slot (no create, no delete); else a release creates an entry
     */
    private record Layout(boolean fenceInside, boolean delete, boolean slots) {
    }

    /**
     * Another layout's floor, in the style of {@link #rawReleaseSide} (plain client, no bookkeeping,
     * no ordering checks): the writer sends the one-key release's transaction of {@code layout} (the
     * key, the history entry or slot, the deletion if any, the fence last), each watcher has a
     * persistent recursive watch on the base, reads the key and the fence in one multi of reads on
     * the key's event, and counts the value as seen when that answer arrives. With the fence outside
     * the base a watcher is told of the key alone: one event per release, not two.
     */
    private static Side rawLayoutSide(String name, List<ZooKeeper> clients, String base, Layout layout) throws Exception {
        ZooKeeper writer = clients.get(0);
        Clients.folder(writer, base);
        String key = base + "/k";
        String history = base + ".history";
        String fence = layout.fenceInside() ? base + "/.releases" : history;
        Clients.folder(writer, key);
        Clients.folder(writer, history);
        Clients.folder(writer, fence);
        if (layout.slots()) {
            for (int s = 0; s < 10; s++) {
                Clients.folder(writer, history + "/slot-" + s);
            }
        }
        long[] n = {0};
        // the compile-warm-up run and the N = 1 row share the base: entries of a side made earlier may still be there
        String entry = history + "/e-" + SIDES_MADE.incrementAndGet() + "-";
        Side side = new Side(name) {
            @Override
            void write(String value) throws Exception {
                n[0]++;
                List<org.apache.zookeeper.Op> ops = new ArrayList<>();
                ops.add(org.apache.zookeeper.Op.setData(key, value.getBytes(UTF_8), -1));
                // a history entry of about the size a one-key release writes, in a node of its own or in its slot
                if (layout.slots()) {
                    ops.add(org.apache.zookeeper.Op.setData(history + "/slot-" + (n[0] % 10), new byte[200], -1));
                } else {
                    ops.add(org.apache.zookeeper.Op.create(entry + n[0], new byte[200], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT));
                }
                if (layout.delete() && n[0] > 10) {
                    ops.add(org.apache.zookeeper.Op.delete(entry + (n[0] - 10), -1));
                }
                ops.add(org.apache.zookeeper.Op.setData(fence, new byte[80], -1));
                writer.multi(ops);
            }

            @Override
            public void close() {
            }
        };
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            ZooKeeper zk = clients.get(i);
            AsyncCallback.MultiCallback read = (rc, p, ctx, results) -> {
                if (rc == KeeperException.Code.OK.intValue() && results.get(0) instanceof org.apache.zookeeper.OpResult.GetDataResult k) {
                    side.heard(watcher, new String(k.getData(), UTF_8));
                }
            };
            List<org.apache.zookeeper.Op> reads = List.of(org.apache.zookeeper.Op.getData(key), org.apache.zookeeper.Op.getData(fence));
            zk.addWatch(base, event -> {
                if (key.equals(event.getPath())) {
                    zk.multi(reads, read, null);
                }
            }, org.apache.zookeeper.AddWatchMode.PERSISTENT_RECURSIVE);
        }
        return side;
    }

    private static ConfigStore writerStore(BatonClient client, String base, List<AutoCloseable> closing) throws InterruptedException {
        ConfigStore store = ConfigStore.builder(client, base).keepReleases(10).build();
        closing.add(store);
        store.start();
        if (!store.awaitInitialized(WAIT)) {
            throw new IllegalStateException("the writer's store of " + base + " did not load");
        }
        return store;
    }

    private static Side batonSide(String name, ConfigStore writer, List<BatonClient> clients, String base, String key, boolean release,
                                  List<AutoCloseable> closing) throws Exception {
        Side side = new Side(name) {
            @Override
            void write(String value) throws Exception {
                if (release) {
                    writer.release().set(key, value).commit();
                } else {
                    writer.set(key, value);
                }
            }

            @Override
            public void close() {
            }
        };
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            ConfigStore store = ConfigStore.builder(clients.get(i), base).build();
            closing.add(store);
            store.start();
            if (!store.awaitInitialized(WAIT)) {
                throw new IllegalStateException("store did not load");
            }
            store.watchKey(key, update -> update.changes().forEach(c -> side.heard(watcher, c.valueAsString().orElse(""))));
        }
        return side;
    }

    private static Side curatorShared(String name, List<CuratorFramework> clients, String path, List<AutoCloseable> closing)
        throws Exception {
        SharedValue writer = new SharedValue(clients.get(0), path, new byte[0]);
        writer.start();
        closing.add(writer);
        Side side = new Side(name) {
            @Override
            void write(String value) throws Exception {
                writer.setValue(value.getBytes(UTF_8));
            }

            @Override
            public void close() {
            }
        };
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            SharedValue shared = new SharedValue(clients.get(i), path, new byte[0]);
            shared.getListenable().addListener(new SharedValueListener() {
                @Override
                public void valueHasChanged(org.apache.curator.framework.recipes.shared.SharedValueReader reader, byte[] newValue) {
                    side.heard(watcher, new String(newValue, UTF_8));
                }

                @Override
                public void stateChanged(CuratorFramework client, ConnectionState newState) {
                    // not measured
                }
            });
            shared.start();
            closing.add(shared);
        }
        return side;
    }

    @SuppressWarnings("deprecation") // NodeCache: Curator 5's deprecated but still shipped single-node cache, the peer of a key watch
    private static Side curatorNodeCache(String name, List<CuratorFramework> clients, String path, List<AutoCloseable> closing)
        throws Exception {
        CuratorFramework writer = clients.get(0);
        if (writer.checkExists().forPath(path) == null) {
            writer.create().forPath(path, new byte[0]);
        }
        Side side = new Side(name) {
            @Override
            void write(String value) throws Exception {
                writer.setData().forPath(path, value.getBytes(UTF_8));
            }

            @Override
            public void close() {
            }
        };
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            NodeCache cache = new NodeCache(clients.get(i), path);
            cache.getListenable().addListener(() -> {
                var data = cache.getCurrentData();
                if (data != null) {
                    side.heard(watcher, new String(data.getData(), UTF_8));
                }
            });
            cache.start(true);
            closing.add(cache);
        }
        return side;
    }

    // ---- cached reads ----

    @SuppressWarnings("deprecation")
    private static void cachedReads(String connect) throws Exception {
        try (BatonClient baton = Clients.baton(connect); CuratorFramework curator = Clients.curator(connect);
             ConfigStore store = ConfigStore.builder(baton, "/bench-read").build()) {
            store.set("http/timeout", "250ms");
            store.set("feature/x", "on");
            store.start();
            awaitTrue(() -> {
                try {
                    return store.awaitInitialized(WAIT) && store.getString("feature/x").isPresent();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            SharedValue shared = new SharedValue(curator, "/bench-read-shared", "on".getBytes(UTF_8));
            shared.start();
            NodeCache node = new NodeCache(curator, "/bench-read-shared");
            node.start(true);
            try {
                long warmEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                while (System.nanoTime() < warmEnd) {
                    loopString(store, BATCH_NANOS);
                    loopBytes(store, BATCH_NANOS);
                    loopShared(shared, BATCH_NANOS);
                    loopNode(node, BATCH_NANOS);
                }
                double[][] ns = new double[4][10];
                for (int i = 0; i < 10; i++) {
                    ns[0][i] = loopString(store, BATCH_NANOS);
                    ns[1][i] = loopBytes(store, BATCH_NANOS);
                    ns[2][i] = loopShared(shared, BATCH_NANOS);
                    ns[3][i] = loopNode(node, BATCH_NANOS);
                }
                System.out.printf("Cached reads, 1 thread, ns/op (median of 10 x %d ms batches after 2 s warm-up)%n",
                    TimeUnit.NANOSECONDS.toMillis(BATCH_NANOS));
                System.out.printf("%-44s %10s %10s %10s%n", "", "median", "min", "max");
                String[] names = {"Baton   ConfigStore.getString(key)", "Baton   ConfigStore.get(key) (byte[] copy)",
                    "Curator SharedValue.getValue() (byte[] copy)", "Curator NodeCache.getCurrentData().getData()"};
                for (int i = 0; i < 4; i++) {
                    Stats s = Stats.of(ns[i]);
                    System.out.printf("%-44s %10.1f %10.1f %10.1f%n", names[i], s.median(), s.min(), s.max());
                }
                System.out.printf("median ratio getString/SharedValue.getValue: %.2f, get/SharedValue.getValue: %.2f (below 1: faster)%n",
                    Stats.of(ns[0]).median() / Stats.of(ns[2]).median(), Stats.of(ns[1]).median() / Stats.of(ns[2]).median());
                System.out.printf("raw     getData round trip (no cache), ns/op: %.0f (what every read costs without one)%n", rawRead(connect));
                System.out.println();
            } finally {
                node.close();
                shared.close();
            }
        }
    }

    // Each loop keeps its own call site (one receiver type each), so the JIT inlines the read as in real use.

    private static double loopString(ConfigStore store, long nanos) {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += store.getString("feature/x").map(String::length).orElse(0);
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < start + nanos);
        sink += acc;
        return (double) (now - start) / calls;
    }

    private static double loopBytes(ConfigStore store, long nanos) {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += store.get("feature/x").map(b -> b.length).orElse(0);
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < start + nanos);
        sink += acc;
        return (double) (now - start) / calls;
    }

    private static double loopShared(SharedValue shared, long nanos) {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += shared.getValue().length;
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < start + nanos);
        sink += acc;
        return (double) (now - start) / calls;
    }

    @SuppressWarnings("deprecation")
    private static double loopNode(NodeCache node, long nanos) {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += node.getCurrentData().getData().length;
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < start + nanos);
        sink += acc;
        return (double) (now - start) / calls;
    }

    /** ns per blocking getData with the plain client, median of five batches of 500. */
    private static double rawRead(String connect) throws Exception {
        ZooKeeper zk = Clients.raw(connect);
        try {
            Clients.caughtUp(zk, "/bench-read-shared");
            double[] batches = new double[5];
            for (int b = 0; b < batches.length; b++) {
                long start = System.nanoTime();
                for (int i = 0; i < 500; i++) {
                    sink += zk.getData("/bench-read-shared", false, null).length;
                }
                batches[b] = (System.nanoTime() - start) / 500.0;
            }
            return Stats.of(batches).median();
        } finally {
            Clients.closeQuietly(zk);
        }
    }

    // ---- contended increments ----

    private static void increments(String connect) throws Exception {
        List<BatonClient> batons = new ArrayList<>();
        List<CuratorFramework> curators = new ArrayList<>();
        List<ZooKeeper> raws = new ArrayList<>();
        try {
            for (int i = 0; i < CONTENDERS; i++) {
                batons.add(Clients.baton(connect));
                curators.add(Clients.curator(connect));
                raws.add(Clients.raw(connect));
            }
            double[] b = new double[3];
            double[] c = new double[3];
            double[] r = new double[3];
            long[] bRetries = new long[3];
            long[] cRetries = new long[3];
            long[] rRetries = new long[3];
            for (int run = 0; run < 3; run++) {
                long[] rResult = rawIncrements(raws, "/bench-counter-raw-" + run);
                long[] bResult = batonIncrements(batons, "/bench-counter-baton-" + run);
                long[] cResult = curatorIncrements(curators, "/bench-counter-curator-" + run);
                r[run] = rResult[0] / (INCREMENT_RUN.toNanos() / 1e9);
                b[run] = bResult[0] / (INCREMENT_RUN.toNanos() / 1e9);
                c[run] = cResult[0] / (INCREMENT_RUN.toNanos() / 1e9);
                rRetries[run] = rResult[1];
                bRetries[run] = bResult[1];
                cRetries[run] = cResult[1];
            }
            Stats sr = Stats.of(r);
            Stats sb = Stats.of(b);
            Stats sc = Stats.of(c);
            System.out.printf("DistributedAtomicLong.increment(), %d clients contending, optimistic, increments/s over %d s (3 alternating runs)%n",
                CONTENDERS, INCREMENT_RUN.toSeconds());
            System.out.printf("%-44s %10s %10s %10s %16s%n", "", "median", "min", "max", "failed/run (med)");
            System.out.printf("%-44s %10.0f %10.0f %10.0f %16.0f%n", "raw     getData + setData(version) loop", sr.median(), sr.min(),
                sr.max(), Stats.of(toDoubles(rRetries)).median());
            System.out.printf("%-44s %10.0f %10.0f %10.0f %16.0f%n", "Baton   DistributedAtomicLong", sb.median(), sb.min(), sb.max(),
                Stats.of(toDoubles(bRetries)).median());
            System.out.printf("%-44s %10.0f %10.0f %10.0f %16.0f%n", "Curator DistributedAtomicLong", sc.median(), sc.min(), sc.max(),
                Stats.of(toDoubles(cRetries)).median());
            System.out.printf("median ratio Baton/Curator: %.2f, Baton/raw: %.2f (above 1 means Baton counts faster)%n",
                sb.median() / sc.median(), sb.median() / sr.median());
        } finally {
            curators.forEach(CuratorFramework::close);
            batons.forEach(BatonClient::close);
            raws.forEach(Clients::closeQuietly);
        }
    }

    private static double[] toDoubles(long[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }

    /**
     * The limit: each client reads the counter with its version and writes it back plus one at
     * that version, again at once when another client came first; the same 8 bytes as the recipes.
     * {increments done, attempts that lost a race}; checks the counter's total.
     */
    private static long[] rawIncrements(List<ZooKeeper> clients, String path) throws Exception {
        try {
            clients.get(0).create(path, ByteBuffer.allocate(Long.BYTES).putLong(0).array(), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // a re-run on the same ensemble
        }
        AtomicLong done = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        long end = System.nanoTime() + INCREMENT_RUN.toNanos();
        CountDownLatch finished = new CountDownLatch(clients.size());
        for (ZooKeeper zk : clients) {
            Thread t = new Thread(() -> {
                try {
                    Clients.caughtUp(zk, path);
                    while (System.nanoTime() < end) {
                        Stat stat = new Stat();
                        long value = ByteBuffer.wrap(zk.getData(path, false, stat)).getLong();
                        try {
                            zk.setData(path, ByteBuffer.allocate(Long.BYTES).putLong(value + 1).array(), stat.getVersion());
                            done.incrementAndGet();
                        } catch (KeeperException.BadVersionException e) {
                            lost.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (KeeperException e) {
                    throw new IllegalStateException(e);
                } finally {
                    finished.countDown();
                }
            });
            t.start();
        }
        finished.await();
        long total = ByteBuffer.wrap(clients.get(0).getData(path, false, null)).getLong();
        if (total != done.get()) {
            throw new IllegalStateException("raw counter at " + total + " after " + done.get() + " increments");
        }
        return new long[] {done.get(), lost.get()};
    }

    /** {increments done, attempts that lost a race}; checks the counter's total. */
    private static long[] batonIncrements(List<BatonClient> clients, String path) throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        long end = System.nanoTime() + INCREMENT_RUN.toNanos();
        CountDownLatch finished = new CountDownLatch(clients.size());
        for (BatonClient client : clients) {
            DistributedAtomicLong counter = new DistributedAtomicLong(client, path, (retry, elapsed, cause) -> {
                lost.incrementAndGet();
                return java.util.Optional.of(Duration.ZERO);
            });
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        AtomicValue<Long> v = counter.increment();
                        if (v.succeeded()) {
                            done.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    finished.countDown();
                }
            });
            t.start();
        }
        finished.await();
        long total = new DistributedAtomicLong(clients.get(0), path, new RetryNTimes(0, Duration.ZERO)).get().postValue();
        if (total != done.get()) {
            throw new IllegalStateException("Baton counter at " + total + " after " + done.get() + " increments");
        }
        return new long[] {done.get(), lost.get()};
    }

    private static long[] curatorIncrements(List<CuratorFramework> clients, String path) throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        long end = System.nanoTime() + INCREMENT_RUN.toNanos();
        CountDownLatch finished = new CountDownLatch(clients.size());
        for (CuratorFramework client : clients) {
            org.apache.curator.framework.recipes.atomic.DistributedAtomicLong counter =
                new org.apache.curator.framework.recipes.atomic.DistributedAtomicLong(client, path, (retryCount, elapsedTimeMs, sleeper) -> {
                    lost.incrementAndGet();
                    return true;
                });
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        if (counter.increment().succeeded()) {
                            done.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    finished.countDown();
                }
            });
            t.start();
        }
        finished.await();
        long total = new org.apache.curator.framework.recipes.atomic.DistributedAtomicLong(clients.get(0), path,
            new org.apache.curator.retry.RetryNTimes(0, 0)).get().postValue();
        if (total != done.get()) {
            throw new IllegalStateException("Curator counter at " + total + " after " + done.get() + " increments");
        }
        return new long[] {done.get(), lost.get()};
    }

    /** Checks the condition every 50 µs; the measured times are taken where the value arrives, so how late this notices does not count. */
    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("condition not met within " + WAIT);
            }
            LockSupport.parkNanos(50_000);
        }
    }
}

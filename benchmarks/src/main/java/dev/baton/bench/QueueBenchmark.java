package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.queue.DistributedQueue;
import dev.baton.recipes.queue.QueueBuilder;
import dev.baton.recipes.queue.QueueLayout;
import dev.baton.recipes.queue.QueueSerializer;
import dev.baton.recipes.queue.SimpleDistributedQueue;
import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Queues with 1,000, 10,000 and 100,000 items waiting: Baton against Curator 5.9.0, one run, on a
 * three-server ensemble with forceSync.
 *
 * <p>At each size both queues are first filled to that size (Curator's paths with Baton's flat
 * layout, which writes Curator's node names and data format, because Curator has no batch put),
 * then, with that many items waiting, each measures: SimpleDistributedQueue offer/s and poll/s,
 * DistributedQueue put/s, Baton's putMulti items/s (1,000 items a transaction, against Curator's
 * single put as the issue asks), and DistributedQueue end to end (a producer puts while the
 * consumer consumes; items/s consumed), and DistributedQueue's consumer alone draining what waits.
 * Two rows with the plain client give the ensemble's own limits at each size: single writes one
 * at a time (no take can cost less than one), and end to end with one bare write to put and one
 * to take, a producer and a taker thread side by side.
 * Baton's batched takes are measured beside them, in batches of 50: SimpleDistributedQueue's
 * pollMulti and the consumer's takeBatch (Curator has neither, so their ratios are against its
 * single poll and its consumer), and four consumers with take batches of 50, each on its own
 * client, draining the same queue together (with how many items each took), as they are and
 * with 1 ms of work per item. Each timed phase handles {@code sample} items (300, or
 * 2,000 with {@code --full}); a Curator phase that fails or takes longer than its cap is reported
 * as "failed: reason" instead of a number.
 *
 * <p>Last, the requests an item costs end to end for each library, as the servers count them.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar queues [--full] [--quick]}
 * ({@code --quick}: only 1,000 items waiting, the size the {@code --lan} tables use).
 */
public final class QueueBenchmark {
    private static int[] SIZES = {1_000, 10_000, 100_000};
    private static final int FILL_BATCH = 1_000;
    /** Items per transaction in the batched take phases (pollMulti, takeBatch). */
    private static final int TAKE_BATCH = 50;
    private static final String RAW = "raw ZooKeeper write/s";
    private static final String RAW_END_TO_END = "raw end-to-end/s";
    private static final String POLL = "simple poll/s  Baton";
    private static final String POLL_MULTI = "simple pollMulti(" + TAKE_BATCH + ") Baton";
    private static final String END_TO_END = "queue end-to-end/s Baton";
    private static final String DRAIN = "queue drain/s Baton";
    private static final String DRAIN_BATCHED = "queue drain takeBatch(" + TAKE_BATCH + ") Baton";
    private static final String DRAIN_CURATOR = "queue drain/s Curator";
    /** Consumers, each on its own client, that drain one queue together in the shared-drain phase. */
    private static final int SHARING = 4;
    private static final String DRAIN_SHARED = "drain takeBatch(" + TAKE_BATCH + ") x" + SHARING + " Baton";
    /** What each item costs the consumer in the second shared drain: work that consumers on four clients can share. */
    private static final Duration SHARED_WORK = Duration.ofMillis(1);
    private static final String DRAIN_SHARED_WORK = "  same, 1 ms work per item";
    /** How long a Curator phase may take before it is reported as failed: 20 s, 120 s with --full. */
    private static Duration CURATOR_CAP = Duration.ofSeconds(20);

    private static final Bytes BYTES = new Bytes();

    private QueueBenchmark() {
    }

    /** Items that are their own bytes, for both libraries' queues. */
    private static final class Bytes
        implements QueueSerializer<byte[]>, org.apache.curator.framework.recipes.queue.QueueSerializer<byte[]> {
        @Override
        public byte[] serialize(byte[] item) {
            return item;
        }

        @Override
        public byte[] deserialize(byte[] bytes) {
            return bytes;
        }
    }

    /** A measured rate, or why there is none. */
    record Rate(double perSecond, String failure) {
        static Rate failed(String why) {
            return new Rate(Double.NaN, why);
        }

        @Override
        public String toString() {
            return failure != null ? "failed: " + failure : String.format("%,.0f", perSecond);
        }
    }

    public static void main(String[] args) throws InterruptedException, IOException {
        boolean full = List.of(args).contains("--full");
        boolean quick = List.of(args).contains("--quick");
        int sample = full ? 2_000 : 300;
        if (quick) {
            SIZES = new int[] {1_000};
        }
        if (full) {
            CURATOR_CAP = Duration.ofSeconds(120);
        }
        Map<String, Rate[]> rows = new LinkedHashMap<>();
        long started = System.nanoTime();
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            String cs = ensemble.connectString();
            ZooKeeper raw = Clients.raw(cs);
            try (BatonClient baton = BatonClient.builder().connectString(Lan.route(cs)).build()) {
                baton.start();
                baton.blockUntilConnected(Duration.ofSeconds(30));
                System.out.println("-- warm-up (class loading and JIT for both; not reported)");
                fillAll(baton, "/bench/warmup", 1_000);
                measureSize(new LinkedHashMap<>(), 0, cs, baton, raw, "/bench/warmup", 200);
                for (int s = 0; s < SIZES.length; s++) {
                    int size = SIZES[s];
                    System.out.printf("-- %,d items waiting (filling...)%n", size);
                    String base = "/bench/" + size;
                    long fillStart = System.nanoTime();
                    fillAll(baton, base, size);
                    System.out.printf("   (filled 4 x %,d items in %.1f s)%n", size, (System.nanoTime() - fillStart) / 1e9);
                    measureSize(rows, s, cs, baton, raw, base, sample);
                }
                countEndToEnd(new Requests(ensemble), cs, raw, sample);
            } finally {
                raw.close();
            }
        }
        print(rows, sample, (System.nanoTime() - started) / 1e9);
    }

    private static void measureSize(Map<String, Rate[]> rows, int s, String cs, BatonClient baton, ZooKeeper raw, String base,
                                    int sample) throws InterruptedException {
        record(rows, RAW, s, rawWrites(raw, base + "/raw", sample));
        record(rows, RAW_END_TO_END, s, rawEndToEnd(raw, base + "/raw", sample));
        SimpleDistributedQueue bSimple = new SimpleDistributedQueue(baton, base + "/baton-simple");
        record(rows, POLL, s, timed(sample, () -> bSimple.poll() != null));
        record(rows, POLL_MULTI, s, timedBatches(sample, () -> bSimple.pollMulti(TAKE_BATCH).size()));
        record(rows, "simple poll/s  Curator", s, curator(cs, c -> {
            var q = new org.apache.curator.framework.recipes.queue.SimpleDistributedQueue(c, base + "/curator-simple");
            return timed(sample, () -> q.poll() != null);
        }));
        byte[] item = new byte[64];
        record(rows, "simple offer/s Baton", s, timed(sample, () -> bSimple.offer(item)));
        record(rows, "simple offer/s Curator", s, curator(cs, c -> {
            var q = new org.apache.curator.framework.recipes.queue.SimpleDistributedQueue(c, base + "/curator-simple");
            return timed(sample, () -> q.offer(item));
        }));
        try (DistributedQueue<byte[]> producer = QueueBuilder.builder(baton, null, BYTES, base + "/baton-queue").buildQueue()) {
            producer.start();
            record(rows, "queue put/s Baton", s, timed(sample, () -> {
                producer.put(item);
                return true;
            }));
            List<byte[]> batch = new ArrayList<>();
            for (int i = 0; i < FILL_BATCH; i++) {
                batch.add(item);
            }
            int multis = Math.max(2, sample / 100);
            Rate multi = timed(multis, () -> {
                producer.putMulti(batch);
                return true;
            });
            record(rows, "queue putMulti items/s Baton", s, new Rate(multi.perSecond() * FILL_BATCH, null));
        }
        record(rows, "queue put/s Curator", s, curator(cs, c -> {
            var q = org.apache.curator.framework.recipes.queue.QueueBuilder.builder(c, null, BYTES, base + "/curator-queue")
                .putInBackground(false).buildQueue();
            q.start();
            try {
                return timed(sample, () -> {
                    q.put(item);
                    return true;
                });
            } finally {
                q.close();
            }
        }));
        record(rows, END_TO_END, s, batonEndToEnd(cs, base + "/baton-queue", sample, 1, true));
        record(rows, "queue end-to-end/s Curator", s, curatorEndToEnd(cs, base + "/curator-queue", sample, true));
        record(rows, DRAIN, s, batonEndToEnd(cs, base + "/baton-queue", sample, 1, false));
        // three times the items: a batched drain is ten times faster, and a consumer lists a shard (up to 5,000 names)
        // once per 2,000 items or so, which 300 items would not amortise
        record(rows, DRAIN_BATCHED, s, batonEndToEnd(cs, base + "/baton-queue", 3 * sample, TAKE_BATCH, false));
        record(rows, DRAIN_CURATOR, s, curatorEndToEnd(cs, base + "/curator-queue", sample, false));
        record(rows, DRAIN_SHARED, s, batonSharedDrain(cs, base + "/baton-queue", 4 * sample, TAKE_BATCH, Duration.ZERO));
        record(rows, DRAIN_SHARED_WORK, s, batonSharedDrain(cs, base + "/baton-queue", 2 * sample, TAKE_BATCH, SHARED_WORK));
    }

    /**
     * Items consumed per second by {@link #SHARING} consumers on separate clients (as separate
     * processes would be), each removing {@code takeBatch} items per transaction, draining what
     * waits together; prints how many items each consumer got.
     */
    private static Rate batonSharedDrain(String cs, String path, int sample, int takeBatch, Duration work) throws InterruptedException {
        List<BatonClient> clients = new ArrayList<>();
        List<DistributedQueue<byte[]>> consumers = new ArrayList<>();
        List<AtomicInteger> shares = new ArrayList<>();
        CountDownLatch consumed = new CountDownLatch(sample);
        try {
            for (int k = 0; k < SHARING; k++) {
                BatonClient client = BatonClient.builder().connectString(Lan.route(cs)).build();
                clients.add(client);
                client.start();
                client.blockUntilConnected(Duration.ofSeconds(30));
                AtomicInteger share = new AtomicInteger();
                shares.add(share);
                consumers.add(QueueBuilder.builder(client, m -> {
                    if (!work.isZero()) {
                        LockSupport.parkNanos(work.toNanos()); // the consumer's own work on the item
                    }
                    share.incrementAndGet();
                    consumed.countDown();
                }, BYTES, path).takeBatch(takeBatch).buildQueue());
            }
            long start = System.nanoTime();
            for (DistributedQueue<byte[]> consumer : consumers) {
                consumer.start();
            }
            if (!consumed.await(CURATOR_CAP.toSeconds() * 3, TimeUnit.SECONDS)) {
                return Rate.failed("consumed " + (sample - consumed.getCount()) + " of " + sample);
            }
            Rate rate = new Rate(sample / ((System.nanoTime() - start) / 1e9), null);
            System.out.printf("   shared drain of %,d items, %d consumers, %d ms work per item: %,.0f items/s, each took %s%n", sample,
                SHARING, work.toMillis(), rate.perSecond(), shares);
            return rate;
        } finally {
            consumers.forEach(DistributedQueue::close);
            clients.forEach(BatonClient::close);
        }
    }

    /**
     * The requests one item costs end to end (put, then taken by a consumer on the same client),
     * each library in a namespace of its own on an empty queue, {@code sample} items; the queue's
     * start and close are counted too (a few requests over the whole sample).
     */
    private static void countEndToEnd(Requests requests, String cs, ZooKeeper raw, int sample) throws InterruptedException {
        System.out.printf("%nrequests per item end to end (%d items each, counted at the servers):%n", sample);
        try {
            Clients.folder(raw, "/countq-raw");
        } catch (KeeperException e) {
            throw new IllegalStateException(e);
        }
        Requests.Count before = requests.now("countq-raw");
        Rate rate = rawEndToEnd(raw, "/countq-raw", sample);
        System.out.println(Requests.line("raw end to end (create, delete)", requests.now("countq-raw").minus(before), sample) + "   " + rate);
        before = requests.now("countq-baton");
        rate = batonEndToEnd(cs, "/countq-baton", sample, 1, true);
        System.out.println(Requests.line("Baton DistributedQueue", requests.now("countq-baton").minus(before), sample) + "   " + rate);
        before = requests.now("countq-curator");
        rate = curatorEndToEnd(cs, "/countq-curator", sample, true);
        System.out.println(Requests.line("Curator DistributedQueue", requests.now("countq-curator").minus(before), sample) + "   " + rate);
    }

    /**
     * Items consumed per second, by a consumer removing {@code takeBatch} items per transaction (1:
     * the default): end to end while a producer puts as many, one {@code put} at a time, on the
     * same client ({@code produce}), or draining what waits ({@code produce} false).
     */
    private static Rate batonEndToEnd(String cs, String path, int sample, int takeBatch, boolean produce) throws InterruptedException {
        try (BatonClient client = BatonClient.builder().connectString(Lan.route(cs)).build()) {
            client.start();
            client.blockUntilConnected(Duration.ofSeconds(30));
            CountDownLatch consumed = new CountDownLatch(sample);
            try (DistributedQueue<byte[]> producer = QueueBuilder.builder(client, null, BYTES, path).buildQueue();
                 DistributedQueue<byte[]> consumer = QueueBuilder.builder(client, m -> consumed.countDown(), BYTES, path)
                     .takeBatch(takeBatch).buildQueue()) {
                producer.start();
                long start = System.nanoTime();
                consumer.start();
                for (int i = 0; produce && i < sample; i++) {
                    producer.put(new byte[64]);
                }
                if (!consumed.await(CURATOR_CAP.toSeconds() * 3, TimeUnit.SECONDS)) {
                    return Rate.failed("consumed " + (sample - consumed.getCount()) + " of " + sample);
                }
                return new Rate(sample / ((System.nanoTime() - start) / 1e9), null);
            }
        }
    }

    /** {@link #batonEndToEnd} for Curator's DistributedQueue (default consumer settings; puts confirmed, not in the background). */
    private static Rate curatorEndToEnd(String cs, String path, int sample, boolean produce) throws InterruptedException {
        return curator(cs, c -> {
            CountDownLatch consumed = new CountDownLatch(sample);
            var consumer = new org.apache.curator.framework.recipes.queue.QueueConsumer<byte[]>() {
                @Override
                public void consumeMessage(byte[] message) {
                    consumed.countDown();
                }

                @Override
                public void stateChanged(CuratorFramework client, ConnectionState newState) {
                }
            };
            var producer = org.apache.curator.framework.recipes.queue.QueueBuilder.builder(c, null, BYTES, path)
                .putInBackground(false).buildQueue();
            var queue = org.apache.curator.framework.recipes.queue.QueueBuilder.builder(c, consumer, BYTES, path).buildQueue();
            producer.start();
            long start = System.nanoTime();
            queue.start();
            try {
                for (int i = 0; produce && i < sample; i++) {
                    producer.put(new byte[64]);
                }
                if (!consumed.await(CURATOR_CAP.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new TimeoutException("consumed " + (sample - consumed.getCount()) + " of " + sample + " within " + CURATOR_CAP
                        + " (its children listing of the whole queue fails or crawls)");
                }
                return new Rate(sample / ((System.nanoTime() - start) / 1e9), null);
            } finally {
                queue.close();
                producer.close();
            }
        });
    }

    /** One item's worth of a timed phase; {@code E} is what the queue's call throws (for Curator, {@code Exception}). */
    @FunctionalInterface
    interface Step<E extends Exception> {
        boolean run() throws E;
    }

    /** A Curator phase; throws {@code Exception} because Curator's queue methods declare it. */
    @FunctionalInterface
    interface CuratorRun {
        Rate run(CuratorFramework client) throws Exception;
    }

    private static <E extends Exception> Rate timed(int n, Step<E> step) throws E {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (!step.run()) {
                return Rate.failed("queue ran dry after " + i + " items");
            }
        }
        return new Rate(n / ((System.nanoTime() - start) / 1e9), null);
    }

    /**
     * The ensemble's own pace at this size, the limit of a one-write operation: {@code sample}
     * creates of a 64-byte sequential node and as many deletes, one at a time with the plain client.
     */
    private static Rate rawWrites(ZooKeeper raw, String path, int sample) throws InterruptedException {
        try {
            Clients.folder(raw, path);
            List<String> nodes = new ArrayList<>(sample);
            long start = System.nanoTime();
            for (int i = 0; i < sample; i++) {
                nodes.add(raw.create(path + "/n-", new byte[64], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL));
            }
            for (String node : nodes) {
                raw.delete(node, -1);
            }
            return new Rate(2.0 * sample / ((System.nanoTime() - start) / 1e9), null);
        } catch (KeeperException e) {
            return Rate.failed(e.toString());
        }
    }

    /**
     * The limit of a queue that costs one write to put and one to take: with the plain client, one
     * thread creates {@code sample} 64-byte sequential nodes one at a time and hands each name
     * over in memory, while another deletes them in that order; items deleted per second. Nothing
     * is listed or read, so no queue can do better end to end with single-item puts and takes.
     */
    private static Rate rawEndToEnd(ZooKeeper raw, String path, int sample) throws InterruptedException {
        java.util.concurrent.BlockingQueue<String> names = new java.util.concurrent.LinkedBlockingQueue<>();
        ExecutorService taker = Executors.newSingleThreadExecutor();
        try {
            long start = System.nanoTime();
            Future<Void> taken = taker.submit(() -> {
                for (int i = 0; i < sample; i++) {
                    raw.delete(names.take(), -1);
                }
                return null;
            });
            for (int i = 0; i < sample; i++) {
                names.add(raw.create(path + "/e-", new byte[64], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL));
            }
            taken.get(CURATOR_CAP.toSeconds() * 3, TimeUnit.SECONDS);
            return new Rate(sample / ((System.nanoTime() - start) / 1e9), null);
        } catch (KeeperException | java.util.concurrent.ExecutionException | TimeoutException e) {
            return Rate.failed(e.toString());
        } finally {
            taker.shutdownNow();
        }
    }

    /** Like {@link #timed}, for a step that handles several items at a time and says how many. */
    private static Rate timedBatches(int n, BatchStep step) throws InterruptedException {
        long start = System.nanoTime();
        for (int done = 0; done < n; ) {
            int got = step.run();
            if (got == 0) {
                return Rate.failed("queue ran dry after " + done + " items");
            }
            done += got;
        }
        return new Rate(n / ((System.nanoTime() - start) / 1e9), null);
    }

    /** A step of {@link #timedBatches}: how many items it handled. */
    @FunctionalInterface
    interface BatchStep {
        int run() throws InterruptedException;
    }

    /** Runs a Curator phase on a client of its own, capped, with few retries, so failures show. */
    private static Rate curator(String cs, CuratorRun run) throws InterruptedException {
        ExecutorService thread = Executors.newSingleThreadExecutor();
        CuratorFramework client = CuratorFrameworkFactory.newClient(Lan.route(cs), 30_000, 15_000, new RetryNTimes(2, 100));
        try {
            client.start();
            client.blockUntilConnected(30, TimeUnit.SECONDS);
            Future<Rate> result = thread.submit(() -> run.run(client));
            try {
                return result.get(CURATOR_CAP.toMillis() + 5_000, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                result.cancel(true);
                return Rate.failed("no result within " + CURATOR_CAP);
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause();
                return Rate.failed(cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
            }
        } finally {
            thread.shutdownNow();
            client.close();
        }
    }

    private static void fillAll(BatonClient baton, String base, int size) throws InterruptedException {
        fill(baton, base + "/baton-simple", size, true, QueueLayout.SHARDED);
        fill(baton, base + "/curator-simple", size, true, QueueLayout.FLAT);
        fill(baton, base + "/baton-queue", size, false, QueueLayout.SHARDED);
        fill(baton, base + "/curator-queue", size, false, QueueLayout.FLAT);
    }

    /** Fills {@code path} to {@code size} items with Baton's putMulti (flat layout writes Curator's format). */
    private static void fill(BatonClient baton, String path, int size, boolean simple, QueueLayout layout) throws InterruptedException {
        if (simple) {
            // a SimpleDistributedQueue stores raw bytes, so its nodes are written here directly, 1,000 a transaction, in
            // the layout offer() uses: flat, or a new shard every SHARD_ROLL_SEQUENCE items as producers roll them
            new SimpleDistributedQueue(baton, path, layout).offer(new byte[64]);
            String parent = layout == QueueLayout.FLAT ? path : path + "/" + latestShard(baton, path);
            int inParent = 1;
            for (int done = 1; done < size; ) {
                if (layout == QueueLayout.SHARDED && inParent >= QueueLayout.SHARD_ROLL_SEQUENCE) {
                    parent = baton.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(path + "/shard-");
                    inParent = 0;
                }
                var tx = baton.transaction();
                int n = Math.min(FILL_BATCH, size - done);
                for (int i = 0; i < n; i++) {
                    tx.create(parent + "/qn-", new byte[64], CreateMode.PERSISTENT_SEQUENTIAL);
                }
                tx.commit();
                done += n;
                inParent += n;
            }
            return;
        }
        try (DistributedQueue<byte[]> queue = QueueBuilder.builder(baton, null, BYTES, path).layout(layout).buildQueue()) {
            queue.start();
            List<byte[]> batch = new ArrayList<>();
            for (int i = 0; i < FILL_BATCH; i++) {
                batch.add(new byte[64]);
            }
            for (int done = 0; done < size; done += FILL_BATCH) {
                queue.putMulti(batch);
            }
        }
    }

    private static String latestShard(BatonClient baton, String path) throws InterruptedException {
        return baton.getChildren().forPath(path).stream().filter(n -> n.startsWith("shard-")).max(String::compareTo).orElseThrow();
    }

    private static void record(Map<String, Rate[]> rows, String name, int sizeIndex, Rate rate) {
        rows.computeIfAbsent(name, k -> new Rate[SIZES.length])[sizeIndex] = rate;
        System.out.printf("   %-30s %s%n", name, rate);
    }

    private static void print(Map<String, Rate[]> rows, int sample, double seconds) {
        System.out.printf("%nQueues, 3-node ensemble with forceSync, %d items per timed phase, %.0f s in all; clients %s%n", sample, seconds,
            Lan.describe());
        System.out.printf("%-30s", "rate (items/s)");
        for (int size : SIZES) {
            System.out.printf(" %18s", String.format("%,d waiting", size));
        }
        System.out.println();
        for (var e : rows.entrySet()) {
            System.out.printf("%-30s", e.getKey());
            for (Rate r : e.getValue()) {
                String text = r == null ? "-" : r.toString();
                System.out.printf(" %18s", text.length() > 18 ? text.substring(0, 18) : text);
            }
            System.out.println();
        }
        System.out.println();
        ratio(rows, POLL, "simple poll/s  Curator", "take: Baton poll / Curator poll (target >= 2)");
        ratio(rows, POLL_MULTI, "simple poll/s  Curator", "take: Baton pollMulti(" + TAKE_BATCH + ") / Curator poll");
        ratio(rows, END_TO_END, "queue end-to-end/s Curator", "end to end: Baton / Curator (target >= 2)");
        ratio(rows, RAW_END_TO_END, "queue end-to-end/s Curator", "end to end: raw limit / Curator");
        ratio(rows, RAW, "simple poll/s  Curator", "take: raw write/s / Curator poll");
        ratio(rows, DRAIN, DRAIN_CURATOR, "drain: Baton / Curator");
        ratio(rows, DRAIN_BATCHED, DRAIN_CURATOR, "drain: Baton takeBatch(" + TAKE_BATCH + ") / Curator");
        ratio(rows, "queue putMulti items/s Baton", "queue put/s Curator", "putMulti / Curator put (target >= 10)");
        ratio(rows, "simple offer/s Baton", "simple offer/s Curator", "offer: Baton / Curator");
        for (String row : SIZES.length < 3 ? List.<String>of()
            : List.of(RAW, RAW_END_TO_END, POLL, POLL_MULTI, "simple offer/s Baton", "queue put/s Baton", END_TO_END, DRAIN, DRAIN_BATCHED)) {
            Rate[] r = rows.get(row);
            String target = row.startsWith("raw") ? " (the ensemble itself)" : " (target >= 0.8)";
            System.out.printf("%-66s %.2f%n", row + " at 100k / at 1k" + target, r[2].perSecond() / r[0].perSecond());
        }
        System.out.println("failures in full:");
        rows.forEach((name, rates) -> {
            for (int i = 0; i < rates.length; i++) {
                if (rates[i] != null && rates[i].failure() != null) {
                    System.out.printf("  %s at %,d: %s%n", name, SIZES[i], rates[i].failure());
                }
            }
        });
    }

    private static void ratio(Map<String, Rate[]> rows, String top, String bottom, String label) {
        System.out.printf("%-45s", label);
        for (int i = 0; i < SIZES.length; i++) {
            double b = rows.get(bottom)[i].perSecond();
            System.out.printf(" %10s", Double.isNaN(b) ? "n/a" : String.format("%.2f", rows.get(top)[i].perSecond() / b));
        }
        System.out.println();
    }
}

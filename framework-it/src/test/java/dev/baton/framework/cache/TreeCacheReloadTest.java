package dev.baton.framework.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.Test;

/**
 * A TreeCache's reads after an outage and behind slow reloads: how many full loads an outage that
 * made many queued steps fail costs (one, or one more for a request that came while it ran, not one
 * per failed step); reads sent as events come, applied in the servers' order; and which of those
 * early reads a read at its turn spoils (those of its node and its kin, never back in time) and
 * which it leaves usable. In this package to read the cache's counters.
 */
@EnsembleTest
class TreeCacheReloadTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int NODES = 16;

    EmbeddedEnsemble ensemble;

    @Test
    void manyRefreshesFailingInOneOutageCostOneReloadNotOneEach(BatonClient writer) throws Exception {
        String base = "/tree-cache-reload/outage";
        seed(writer, base);
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             // no retries and a short wait for a connection: a step that meets the outage fails at once
             BatonClient reader = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(30)).connectionTimeout(Duration.ofMillis(200))
                 .retryPolicy(new RetryNTimes(0, Duration.ZERO)));
             TreeCache cache = TreeCache.builder(reader, base).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            long before = cache.reloadsDone();
            // the link is cut the moment the burst's last event arrives: the cache has sent (or is about
            // to send) the read of every changed node, and none can be answered yet, so every step fails
            CountDownLatch cut = new CountDownLatch(1);
            String last = base + "/n" + (NODES - 1);
            reader.watches().add(base, AddWatchMode.PERSISTENT_RECURSIVE, event -> {
                if (event.getType() == Watcher.Event.EventType.NodeDataChanged && last.equals(event.getPath())) {
                    proxy.cut();
                    cut.countDown();
                }
            });

            // every read now takes two held hops of 300 ms
            proxy.delay(Duration.ofMillis(300));
            setToV1InOneTransaction(writer, base, 0, NODES);
            assertThat(cut.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the burst's last event").isTrue();
            await().atMost(WAIT).until(() -> reader.connectionState() != ConnectionState.CONNECTED
                && reader.connectionState() != ConnectionState.RECONNECTED);
            proxy.delay(Duration.ZERO);
            proxy.heal();

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(cache.reloadsDone()).isGreaterThan(before);
                for (int i = 0; i < NODES; i++) {
                    assertThat(cache.get(base + "/n" + i).map(ChildData::data).orElseThrow()).isEqualTo("v1".getBytes(UTF_8));
                }
            });
            // the old way, each failed refresh had queued a reload of its own, one second after its failure
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(cache.reloadsDone() - before).as("full loads after one outage of %d queued refreshes", NODES)
                    .isLessThanOrEqualTo(2));
        }
    }

    @Test
    void aBurstOfChangesIsReadAsItsEventsComeAndAppliedInTheServersOrder(BatonClient writer) throws Exception {
        String base = "/tree-cache-reload/burst";
        seed(writer, base);
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient reader = TestClients.started(proxy.connectString(), Duration.ofSeconds(30));
             TreeCache cache = TreeCache.builder(reader, base).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            BlockingQueue<String> heard = heardChanges(cache);
            long usedBefore = cache.earlyReadsUsed();
            // every round trip of the reader takes 600 ms or more: the burst's events all come before the first read is
            // answered, so reads sent as the events come are all in flight together
            proxy.delay(Duration.ofMillis(300));
            setToV1InOneTransaction(writer, base, 0, NODES);
            assertHeardInTheServersOrder(heard, base, NODES);
            assertThat(cache.earlyReadsUsed() - usedBefore).as("changes applied from a read sent when their event came")
                .isEqualTo(NODES);
            assertThat(cache.earlyReadsPeak()).as("reads of the burst in flight at once").isGreaterThan(1);
        }
    }

    @Test
    void aReadAtItsTurnLeavesTheEarlyReadsOfOtherNodesUsable(BatonClient writer) throws Exception {
        String base = "/tree-cache-reload/kin";
        seed(writer, base);
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient reader = TestClients.started(proxy.connectString(), Duration.ofSeconds(30));
             TreeCache cache = TreeCache.builder(reader, base).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            BlockingQueue<String> heard = heardChanges(cache);
            // three changes while the cache loads again: their reads, sent then, are not used, and each node is read
            // again at its turn after the load, one after the other
            loadSlowlyWhileChanging(writer, reader, proxy, cache, base, 3);
            long usedBefore = cache.earlyReadsUsed();

            // ten other nodes change while those three are read again: their reads go out as their events come, before
            // the second and third of those reads, which are of other nodes and cannot make them stale
            setToV1InOneTransaction(writer, base, 3, 13);
            assertHeardInTheServersOrder(heard, base, 13);
            assertThat(cache.earlyReadsUsed() - usedBefore).as("of the ten, changes applied from the read sent when their event came")
                .isEqualTo(10);
        }
    }

    @Test
    void anEarlyReadSentBeforeAReadOfItsNodeAtItsTurnIsNotUsed(BatonClient writer) throws Exception {
        String base = "/tree-cache-reload/same";
        seed(writer, base);
        String target = base + "/n4";
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient reader = TestClients.started(proxy.connectString(), Duration.ofSeconds(30));
             TreeCache cache = TreeCache.builder(reader, base).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            List<String> values = new CopyOnWriteArrayList<>();
            cache.addListener(e -> {
                if (e.type() != CacheEvent.Type.REMOVED && e.node() != null && target.equals(e.node().path())) {
                    values.add(new String(e.node().data(), UTF_8));
                }
            });
            // five changes while the cache loads again: after it, n0 to n4 are read again at their turns, 600 ms apart
            loadSlowlyWhileChanging(writer, reader, proxy, cache, base, 5);
            // n4 changes to v2 (its event's read goes out at once, and sees v2), and two of the reader's round trips later
            // it is deleted and made again with v3: n4's read at its turn goes out after all that, and sees the new node;
            // the read that saw the old node at v2, queued behind it, must not bring the old node back (a node's own
            // versions keep one incarnation from going back, not a new incarnation from an older one)
            writer.setData().forPath(target, "v2".getBytes(UTF_8));
            reader.sync().forPath(base);
            reader.sync().forPath(base);
            writer.delete().forPath(target);
            writer.create().forPath(target, "v3".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> cache.get(target).map(d -> new String(d.data(), UTF_8)).orElse("").equals("v3")
                && cache.earlyReadsPending() == 0);
            assertThat(values).as("n4's values as the listener heard them").contains("v3");
            assertThat(values.subList(values.indexOf("v3"), values.size())).as("n4 after it reached v3: never back")
                .containsOnly("v3");
        }
    }

    @Test
    void anEarlyReadSentBeforeAReadOfItsParentAtItsTurnDoesNotBringBackWhatThatReadRemoved(BatonClient writer) throws Exception {
        String base = "/tree-cache-reload/below";
        seed(writer, base);
        String parent = base + "/n4";
        String child = parent + "/c";
        writer.create().forPath(child, "v0".getBytes(UTF_8));
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient reader = TestClients.started(proxy.connectString(), Duration.ofSeconds(30));
             TreeCache cache = TreeCache.builder(reader, base).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            List<String> heard = new CopyOnWriteArrayList<>();
            CountDownLatch last = new CountDownLatch(1);
            String lastChange = base + "/n15";
            cache.addListener(e -> {
                if (e.node() != null && (e.node().path().equals(parent) || e.node().path().startsWith(parent + "/"))) {
                    heard.add(e.type() + " " + e.node().path());
                } else if (e.node() != null && lastChange.equals(e.node().path())) {
                    last.countDown();
                }
            });
            // five changes while the cache loads again: after it, n0 to n4 are read again at their turns, 600 ms apart
            loadSlowlyWhileChanging(writer, reader, proxy, cache, base, 5);
            // n4's child changes (its event's read goes out at once, and sees it), and two of the reader's round trips
            // later the child and n4 are deleted: n4's read at its turn goes out after all that, finds n4 gone, and the
            // cache removes n4 and its child. The read that saw the child, queued behind n4's, must not put it back:
            // the child's own read at its turn would find nothing, but this one was answered from before the deletions
            writer.setData().forPath(child, "v1".getBytes(UTF_8));
            reader.sync().forPath(base);
            reader.sync().forPath(base);
            writer.delete().forPath(child);
            writer.delete().forPath(parent);
            // a later change: once the listener hears it, it has heard everything the cache did before it
            writer.setData().forPath(lastChange, "v1".getBytes(UTF_8));
            assertThat(last.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the change after the deletions, heard").isTrue();
            assertThat(cache.get(parent)).as("n4 in the cache").isEmpty();
            assertThat(heard).as("n4 and its child as the listener heard them").contains("REMOVED " + parent);
            assertThat(heard.subList(heard.indexOf("REMOVED " + parent) + 1, heard.size()))
                .as("n4 and its child after the cache removed n4 (nothing made them again): nothing comes back").isEmpty();
        }
    }

    /** Sets n{@code from} to n{@code to - 1} under {@code base} to "v1" in one transaction: one burst of events. */
    private static void setToV1InOneTransaction(BatonClient writer, String base, int from, int to) throws InterruptedException {
        TransactionBuilder tx = writer.transaction();
        for (int i = from; i < to; i++) {
            tx.setData(base + "/n" + i, "v1".getBytes(UTF_8));
        }
        tx.commit();
    }

    /** What {@code cache}'s listener hears from now on, as "TYPE path=data". */
    private static BlockingQueue<String> heardChanges(TreeCache cache) {
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        cache.addListener(e -> {
            if (e.node() != null) { // INITIALIZED, if the listener is added before it is delivered, has no node
                heard.add(e.type() + " " + e.node().path() + "=" + new String(e.node().data(), UTF_8));
            }
        });
        return heard;
    }

    /** The next {@code count} changes heard are n0 to n{@code count - 1} set to "v1", in that order (the servers'), each once. */
    private static void assertHeardInTheServersOrder(BlockingQueue<String> heard, String base, int count) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String next = heard.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(next).as("change %d within %s", i, WAIT).isNotNull();
            seen.add(next);
        }
        assertThat(seen).as("in the servers' order, each once").containsExactlyElementsOf(IntStream.range(0, count)
            .mapToObj(i -> "UPDATED " + base + "/n" + i + "=v1").toList());
    }

    /** {@code base} with the nodes n0 to n15, each "v0". */
    private static void seed(BatonClient writer, String base) throws InterruptedException {
        writer.create().creatingParentsIfNeeded().forPath(base);
        for (int i = 0; i < NODES; i++) {
            writer.create().forPath(base + "/n" + i, "v0".getBytes(UTF_8));
        }
    }

    /**
     * Makes every round trip of {@code reader} take 600 ms or more, and its cache load the subtree
     * again (a reconnection: a sync and a few rounds of reads, 600 ms each); while that load runs,
     * sets n0 to n{@code changed - 1} to "v1". Returns once the load is done.
     */
    private static void loadSlowlyWhileChanging(BatonClient writer, BatonClient reader, ChaosProxy proxy, TreeCache cache, String base,
                                                int changed) throws InterruptedException {
        long loads = cache.reloadsDone();
        proxy.delay(Duration.ofMillis(300));
        proxy.cut();
        await().atMost(WAIT).until(() -> !reader.connectionState().isConnected());
        proxy.heal();
        await().atMost(WAIT).until(() -> reader.connectionState().isConnected());
        // a round trip of the reader's: the servers have its watch again (the client sends it first on reconnecting),
        // and the load, sent before this, still runs
        reader.sync().forPath(base);
        for (int i = 0; i < changed; i++) {
            writer.setData().forPath(base + "/n" + i, "v1".getBytes(UTF_8));
        }
        await().atMost(WAIT).until(() -> cache.reloadsDone() > loads);
    }
}

package dev.baton.framework;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.cache.CacheEvent;
import dev.baton.framework.cache.CacheListener;
import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.ChildrenCache;
import dev.baton.framework.cache.NodeCache;
import dev.baton.framework.cache.TreeCache;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Caches against a real server: events in order, one watch per subtree, full resync after faults. */
@EnsembleTest
class CachesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    private static String base(TestInfo info) {
        return "/caches/" + info.getTestMethod().orElseThrow().getName();
    }

    private static final class Events {
        final BlockingQueue<CacheEvent> queue = new LinkedBlockingQueue<>();

        String next() throws InterruptedException {
            CacheEvent e = queue.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(e).as("a cache event within %s", WAIT).isNotNull();
            return e.type() + (e.node() == null ? "" : " " + e.node().path() + "=" + new String(e.node().data(), UTF_8));
        }
    }

    @Test
    void treeCacheReportsTheInitialTreeThenEveryChangeInOrder(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        client.create().creatingParentsIfNeeded().forPath(base + "/a", "1".getBytes(UTF_8));
        Events events = new Events();
        try (TreeCache cache = TreeCache.builder(client, base).build()) {
            cache.addListener(events.queue::add);
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            assertThat(List.of(events.next(), events.next())).containsExactlyInAnyOrder("ADDED " + base + "=", "ADDED " + base + "/a=1");
            assertThat(events.next()).isEqualTo("INITIALIZED");

            client.create().forPath(base + "/a/b", "2".getBytes(UTF_8));
            assertThat(events.next()).isEqualTo("ADDED " + base + "/a/b=2");
            client.setData().forPath(base + "/a", "3".getBytes(UTF_8));
            assertThat(events.next()).isEqualTo("UPDATED " + base + "/a=3");
            client.delete().deletingChildrenIfNeeded().forPath(base + "/a");
            assertThat(List.of(events.next(), events.next())).containsExactlyInAnyOrder("REMOVED " + base + "/a/b=2", "REMOVED " + base + "/a=3");
            assertThat(cache.snapshot().keySet()).containsExactly(base);
        }
    }

    @Test
    void aFilteredTreeCacheReadsAndKeepsOnlyTheNodesItsFilterAccepts(BatonClient writer, TestInfo info) throws Exception {
        String base = base(info);
        writer.create().creatingParentsIfNeeded().forPath(base + "/keep/x", "1".getBytes(UTF_8));
        writer.create().creatingParentsIfNeeded().forPath(base + "/skip/y", "2".getBytes(UTF_8));
        AtomicLong reads = new AtomicLong();
        Events events = new Events();
        try (BatonClient reader = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
             TreeCache cache = TreeCache.builder(reader, base).filter(path -> !path.endsWith("/skip")).build()) {
            reader.addObserver(new BatonObserver() {
                @Override
                public void requestCompleted(String operation, long nanos, boolean succeeded) {
                    if (operation.equals("getData")) {
                        reads.incrementAndGet();
                    }
                }
            });
            cache.addListener(events.queue::add);
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            assertThat(List.of(events.next(), events.next(), events.next()))
                .containsExactlyInAnyOrder("ADDED " + base + "=", "ADDED " + base + "/keep=", "ADDED " + base + "/keep/x=1");
            assertThat(events.next()).isEqualTo("INITIALIZED");
            assertThat(cache.snapshot().keySet()).as("refused: skip and what is under it")
                .containsExactly(base, base + "/keep", base + "/keep/x");
            assertThat(reads.get()).as("nodes read by the load").isEqualTo(3);

            writer.create().forPath(base + "/skip/z", "3".getBytes(UTF_8)); // under a refused node: not read
            writer.setData().forPath(base + "/skip", "4".getBytes(UTF_8));
            writer.create().forPath(base + "/keep/w", "5".getBytes(UTF_8));
            assertThat(events.next()).as("the next event: skip's changes are not seen").isEqualTo("ADDED " + base + "/keep/w=5");
            assertThat(reads.get()).as("nodes read: the load's 3 and keep/w").isEqualTo(4);
            writer.delete().forPath(base + "/keep/x");
            assertThat(events.next()).isEqualTo("REMOVED " + base + "/keep/x=1");
        }
    }

    @Test
    void nodeCacheFollowsOneNodeThroughCreationChangeAndDeletion(BatonClient client, TestInfo info) throws Exception {
        String path = base(info);
        try (NodeCache cache = new NodeCache(client, path)) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            assertThat(cache.current()).isEmpty();
            client.create().creatingParentsIfNeeded().forPath(path, "v1".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> cache.current().map(d -> new String(d.data(), UTF_8)).orElse("").equals("v1"));
            client.create().forPath(path + "/child-is-ignored");
            client.setData().forPath(path, "v2".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> cache.current().map(d -> new String(d.data(), UTF_8)).orElse("").equals("v2"));
            client.delete().deletingChildrenIfNeeded().forPath(path);
            await().atMost(WAIT).until(() -> cache.current().isEmpty());
        }
    }

    @Test
    void childrenCacheSeesChildrenButNotGrandchildren(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        client.create().creatingParentsIfNeeded().forPath(base + "/one", "1".getBytes(UTF_8));
        try (ChildrenCache cache = new ChildrenCache(client, base)) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            assertThat(cache.children().keySet()).containsExactly("one");
            client.create().forPath(base + "/two");
            client.create().forPath(base + "/one/grandchild");
            await().atMost(WAIT).until(() -> cache.children().keySet().equals(java.util.Set.of("one", "two")));
            client.delete().forPath(base + "/two");
            await().atMost(WAIT).until(() -> cache.children().keySet().equals(java.util.Set.of("one")));
        }
    }

    @Test
    void childrenAndNodeCachesStopTellingARemovedListenerAsCuratorsListenablesDo(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        client.create().creatingParentsIfNeeded().forPath(base, "v1".getBytes(UTF_8));
        Events removed = new Events();
        Events kept = new Events();
        CacheListener removedListener = removed.queue::add;
        CacheListener keptListener = kept.queue::add;
        try (ChildrenCache children = new ChildrenCache(client, base); NodeCache node = new NodeCache(client, base)) {
            children.addListener(removedListener);
            children.addListener(keptListener);
            node.addListener(removedListener);
            node.addListener(keptListener);
            children.start();
            node.start();
            // the first load is reported after awaitInitialized returns: let both INITIALIZED
            // events reach the listeners before removing one, so that nothing of it arrives later
            int initialized = 0;
            while (initialized < 2) {
                if (kept.next().equals("INITIALIZED")) {
                    initialized++;
                }
            }
            children.removeListener(removedListener);
            node.removeListener(removedListener);
            removed.queue.clear();
            kept.queue.clear();

            // each event goes to every listener in one pass, so once the kept listener has heard
            // both changes, the removed one would have heard them too
            client.create().forPath(base + "/after", "a".getBytes(UTF_8));
            client.setData().forPath(base, "v2".getBytes(UTF_8));
            assertThat(List.of(kept.next(), kept.next())).containsExactlyInAnyOrder("ADDED " + base + "/after=a", "UPDATED " + base + "=v2");
            assertThat(removed.queue).as("events heard by a removed listener").isEmpty();
        }
    }

    @Test
    void aListenerAddedTwiceHearsEachEventOnceAndOneRemovalStopsItOnEveryCache(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        client.create().creatingParentsIfNeeded().forPath(base, "v1".getBytes(UTF_8));
        try (TreeCache tree = TreeCache.builder(client, base).build(); NodeCache node = new NodeCache(client, base);
             ChildrenCache children = new ChildrenCache(client, base)) {
            Events treeHeard = new Events();
            Events nodeHeard = new Events();
            Events childrenHeard = new Events();
            Events treeLast = new Events();
            Events nodeLast = new Events();
            Events childrenLast = new Events();
            CacheListener treeTwice = treeHeard.queue::add;
            CacheListener nodeTwice = nodeHeard.queue::add;
            CacheListener childrenTwice = childrenHeard.queue::add;
            tree.addListener(treeTwice);
            tree.addListener(treeTwice);
            tree.addListener(treeLast.queue::add);
            node.addListener(nodeTwice);
            node.addListener(nodeTwice);
            node.addListener(nodeLast.queue::add);
            children.addListener(childrenTwice);
            children.addListener(childrenTwice);
            children.addListener(childrenLast.queue::add);
            tree.start();
            node.start();
            children.start();
            assertThat(tree.awaitInitialized(WAIT) && node.awaitInitialized(WAIT) && children.awaitInitialized(WAIT)).isTrue();
            client.setData().forPath(base, "v2".getBytes(UTF_8));
            client.create().forPath(base + "/child", "c".getBytes(UTF_8));

            // each event goes to every listener in one pass, in the order they were added: once the
            // listener added last has heard the child, the one added twice has heard all it will of it
            untilHeard(treeLast, "ADDED " + base + "/child=c");
            untilHeard(nodeLast, "UPDATED " + base + "=v2");
            untilHeard(childrenLast, "ADDED " + base + "/child=c");
            assertThat(heard(treeHeard)).as("a tree cache's listener added twice").doesNotHaveDuplicates();
            assertThat(heard(nodeHeard)).as("a node cache's listener added twice").doesNotHaveDuplicates();
            assertThat(heard(childrenHeard)).as("a children cache's listener added twice").doesNotHaveDuplicates();

            tree.removeListener(treeTwice);
            node.removeListener(nodeTwice);
            children.removeListener(childrenTwice);
            client.setData().forPath(base, "v3".getBytes(UTF_8));
            client.setData().forPath(base + "/child", "c2".getBytes(UTF_8));
            untilHeard(treeLast, "UPDATED " + base + "/child=c2");
            untilHeard(nodeLast, "UPDATED " + base + "=v3");
            untilHeard(childrenLast, "UPDATED " + base + "/child=c2");
            assertThat(treeHeard.queue).as("a tree cache's listener added twice and removed once").isEmpty();
            assertThat(nodeHeard.queue).as("a node cache's listener added twice and removed once").isEmpty();
            assertThat(childrenHeard.queue).as("a children cache's listener added twice and removed once").isEmpty();
        }
    }

    /** Takes events from {@code events} until {@code wanted} is among them. */
    private static void untilHeard(Events events, String wanted) throws InterruptedException {
        while (!events.next().equals(wanted)) {
            // an earlier event
        }
    }

    /** {@return every event {@code events} holds now, as {@link Events#next()} spells them; the queue is emptied} */
    private static List<String> heard(Events events) throws InterruptedException {
        List<String> all = new ArrayList<>();
        while (!events.queue.isEmpty()) {
            all.add(events.next());
        }
        return all;
    }

    @Test
    void oneWatchServesTheWholeSubtreeHoweverManyNodesItHas(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        client.create().creatingParentsIfNeeded().forPath(base);
        try (TreeCache cache = TreeCache.builder(client, base).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            int before = totalWatches();
            for (int i = 0; i < 30; i++) {
                client.create().forPath(base + "/n" + i);
            }
            await().atMost(WAIT).until(() -> cache.snapshot().size() == 31);
            assertThat(totalWatches()).as("watches on the server after caching 30 more nodes").isEqualTo(before);
        }
    }

    @Test
    void changesMadeWhileDisconnectedAppearAfterReconnect(BatonClient writer, TestInfo info) throws Exception {
        String base = base(info);
        writer.create().creatingParentsIfNeeded().forPath(base + "/stays", "old".getBytes(UTF_8));
        writer.create().forPath(base + "/goes");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient reader = TestClients.started(proxy.connectString(), Duration.ofSeconds(20));
             TreeCache cache = TreeCache.builder(reader, base).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            proxy.cut();
            await().atMost(WAIT).until(() -> reader.connectionState() == ConnectionState.SUSPENDED);
            writer.setData().forPath(base + "/stays", "new".getBytes(UTF_8));
            writer.delete().forPath(base + "/goes");
            writer.create().forPath(base + "/comes");
            proxy.heal();
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(cache.children(base).keySet()).containsExactlyInAnyOrder("stays", "comes");
                assertThat(cache.get(base + "/stays").map(ChildData::data).orElseThrow()).isEqualTo("new".getBytes(UTF_8));
            });
        }
    }

    @Test
    void afterASessionExpiryTheCacheWatchesAgainAndCatchesUp(BatonClient writer, TestInfo info) throws Exception {
        String base = base(info);
        writer.create().creatingParentsIfNeeded().forPath(base + "/before");
        try (BatonClient reader = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
             TreeCache cache = TreeCache.builder(reader, base).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            long session = reader.sessionId();
            SessionKiller.expire(reader, ensemble.connectString(), WAIT);
            writer.create().forPath(base + "/during");
            await().atMost(WAIT).until(() -> reader.sessionId() != session && reader.connectionState().isConnected());
            await().atMost(WAIT).until(() -> cache.get(base + "/during").isPresent());
            // the watch was installed again for the new session: later changes keep arriving
            writer.create().forPath(base + "/after");
            await().atMost(WAIT).until(() -> cache.get(base + "/after").isPresent());
        }
    }

    /**
     * A cache whose connection is cut just as another cache of the same client closes (its watch
     * removal in flight, so ZooKeeper swallows the Disconnected: see ConnectionStatesTest) still
     * loads what changed during the cut once the connection is back. TransactionChaosTest: a
     * participant never saw the transactions created during such a cut.
     */
    @Test
    void aCacheSeesWhatChangedWhileItsLinkWasCutAsAnotherCacheClosed(BatonClient writer, TestInfo info) throws Exception {
        String base = base(info);
        writer.create().creatingParentsIfNeeded().forPath(base);
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient reader = TestClients.started(proxy.connectString(), Duration.ofSeconds(20));
             TreeCache cache = TreeCache.builder(reader, base).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            TreeCache other = TreeCache.builder(reader, base).build();
            other.start();
            assertThat(other.awaitInitialized(WAIT)).isTrue();

            proxy.pauseReplies();
            other.close(); // its watch removal is sent; the answer is held...
            proxy.cut(); // ...and lost with the connection
            writer.create().forPath(base + "/while-cut");
            proxy.heal();
            await().atMost(Duration.ofSeconds(15)).until(() -> reader.connectionState().isConnected());
            writer.create().forPath(base + "/after");
            await().atMost(WAIT).until(() -> cache.get(base + "/after").isPresent());
            assertThat(cache.get(base + "/while-cut")).as("the node created while the link was cut").isPresent();
        }
    }

    /**
     * The chaos run's sequence for one client: its session is expired, and just after the new
     * session starts its traffic is frozen past the session timeout, so a third session follows,
     * while another client keeps creating nodes (each with a child, as transactions with votes).
     * Once the last session is up, the cache must show every node within a few seconds.
     */
    @Test
    void aCacheCatchesUpAfterAnExpiryFollowedByAFreezeWhileNodesAreCreated(BatonClient writer, TestInfo info) throws Exception {
        String base = base(info);
        writer.create().creatingParentsIfNeeded().forPath(base);
        Duration session = Duration.ofSeconds(3);
        java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
        Thread creator = new Thread(() -> {
            while (writing.get()) {
                try {
                    String node = base + "/n" + created.get();
                    writer.create().forPath(node);
                    writer.create().forPath(node + "/vote");
                    created.incrementAndGet();
                    TimeUnit.MILLISECONDS.sleep(20); // the workload's pace, not a wait for the cache
                } catch (InterruptedException e) {
                    return;
                } catch (BatonException e) {
                    // the writer's own connection is not faulted; keep going
                }
            }
        }, "creator");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient reader = TestClients.started(proxy.connectString(), session);
             TreeCache cache = TreeCache.builder(reader, base).maxDepth(2).build()) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            creator.start();
            for (int round = 0; round < 2; round++) {
                long first = reader.sessionId();
                SessionKiller.expire(reader, ensemble.connectString(), WAIT);
                await().atMost(WAIT).pollInterval(Duration.ofMillis(5))
                    .until(() -> reader.sessionId() != first && reader.sessionId() != 0 && reader.connectionState().isConnected());
                long second = reader.sessionId();
                proxy.pause();
                await().atMost(WAIT).until(() -> reader.connectionState() == ConnectionState.LOST);
                await().atMost(WAIT).until(() -> reader.sessionId() != second);
                proxy.resume();
                await().atMost(WAIT).until(() -> reader.sessionId() != 0 && reader.connectionState().isConnected());
                int sure = created.get();
                long connected = System.nanoTime();
                try {
                    await().atMost(Duration.ofSeconds(5)).until(() -> {
                        for (int i = 0; i < sure; i++) {
                            if (cache.get(base + "/n" + i).isEmpty() || cache.get(base + "/n" + i + "/vote").isEmpty()) {
                                return false;
                            }
                        }
                        return true;
                    });
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    java.util.List<String> missing = new ArrayList<>();
                    for (int i = 0; i < sure; i++) {
                        if (cache.get(base + "/n" + i).isEmpty() || cache.get(base + "/n" + i + "/vote").isEmpty()) {
                            missing.add("n" + i);
                        }
                    }
                    throw new AssertionError("round " + round + ": 5 s after the third session connected, the cache lacks "
                        + missing + " of " + sure + " nodes created (" + (System.nanoTime() - connected) / 1_000_000 + " ms)", e);
                }
            }
        } finally {
            writing.set(false);
            creator.interrupt();
            creator.join();
        }
    }

    /**
     * A service restarts its cache on the same client while nodes are being created (a participant's
     * new incarnation): the new cache must show every node, those created while it loaded included.
     */
    @Test
    void aCacheStartedAgainOnTheSameClientSeesNodesCreatedWhileItLoads(BatonClient writer, TestInfo info) throws Exception {
        String base = base(info);
        writer.create().creatingParentsIfNeeded().forPath(base);
        for (int i = 0; i < 200; i++) {
            writer.create().forPath(base + "/old" + i);
        }
        java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
        // held by the test while it judges a round: the creator stops between two nodes, so the judgement is of the
        // nodes created while the cache loaded and after, not of how fast a cache catches up with an endless stream
        java.util.concurrent.Semaphore gate = new java.util.concurrent.Semaphore(1);
        Thread creator = new Thread(() -> {
            while (writing.get()) {
                try {
                    gate.acquire();
                    try {
                        String node = base + "/n" + created.get();
                        writer.create().forPath(node);
                        writer.create().forPath(node + "/vote");
                        created.incrementAndGet();
                    } finally {
                        gate.release();
                    }
                } catch (BatonException | InterruptedException e) {
                    return;
                }
            }
        }, "creator");
        try (BatonClient reader = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            TreeCache cache = TreeCache.builder(reader, base).maxDepth(2).build();
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            creator.start();
            for (int round = 0; round < 10; round++) {
                cache.close();
                cache = TreeCache.builder(reader, base).maxDepth(2).build();
                cache.start();
                assertThat(cache.awaitInitialized(WAIT)).isTrue();
                int sure = created.get() + 5;
                await().atMost(WAIT).until(() -> created.get() >= sure);
                gate.acquire();
                TreeCache current = cache;
                try {
                    await().atMost(Duration.ofSeconds(5)).until(() -> missing(current, base, sure).isEmpty());
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    throw new AssertionError("round " + round + ": 5 s later the restarted cache still lacks " + missing(current, base, sure)
                        + " of the " + sure + " nodes created", e);
                } finally {
                    gate.release();
                }
            }
            cache.close();
        } finally {
            writing.set(false);
            creator.join();
        }
    }

    private static List<String> missing(TreeCache cache, String base, int count) {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (cache.get(base + "/n" + i).isEmpty() || cache.get(base + "/n" + i + "/vote").isEmpty()) {
                missing.add("n" + i);
            }
        }
        return missing;
    }

    private int totalWatches() throws Exception {
        return ServerWatches.total(ensemble.clientPort(1));
    }
}

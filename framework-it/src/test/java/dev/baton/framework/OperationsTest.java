package dev.baton.framework;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Every operation against a real server, in both forms. Each test works under its own path. */
@EnsembleTest
class OperationsTest {

    private static String base(TestInfo info) {
        return "/" + info.getTestMethod().orElseThrow().getName();
    }

    @Test
    void createsInEveryModeAndNodesWithoutDataGetEmptyData(BatonClient client, TestInfo info) throws Exception {
        String base = client.create().forPath(base(info));
        assertThat(client.getData().forPath(base)).isEmpty();

        String ephemeral = client.create().withMode(CreateMode.EPHEMERAL).forPath(base + "/e", bytes("e"));
        assertThat(client.checkExists().forPath(ephemeral).getEphemeralOwner()).isEqualTo(client.sessionId());

        String seq1 = client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(base + "/s-");
        String seq2 = client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(base + "/s-");
        assertThat(seq1).matches(base + "/s-\\d{10}");
        assertThat(seq2.compareTo(seq1)).isPositive();

        String ttl = client.create().withMode(CreateMode.PERSISTENT_WITH_TTL).withTtl(Duration.ofMinutes(5)).forPath(base + "/ttl");
        assertThat(client.checkExists().forPath(ttl)).isNotNull();

        String container = client.create().withMode(CreateMode.CONTAINER).forPath(base + "/c");
        client.create().forPath(container + "/child");
        client.delete().forPath(container + "/child");
        // an emptied container is reaped by the server (the embedded one checks every second)
        await().atMost(Duration.ofSeconds(20)).until(() -> client.checkExists().forPath(container) == null);
    }

    @Test
    void createsMissingParentsAsPersistentNodesOrContainers(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        client.create().creatingParentsIfNeeded().forPath(base + "/p/q/r", bytes("leaf"));
        assertThat(client.getData().forPath(base + "/p/q/r")).isEqualTo(bytes("leaf"));
        assertThat(client.getData().forPath(base + "/p")).isEmpty();
        assertThat(client.checkExists().forPath(base + "/p").getEphemeralOwner()).isZero();

        client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(base + "/box/item");
        // the container parent is reaped once its only child is gone
        client.delete().forPath(base + "/box/item");
        await().atMost(Duration.ofSeconds(20)).until(() -> client.checkExists().forPath(base + "/box") == null);

        assertThatThrownBy(() -> client.create().forPath(base + "/missing/child"))
            .isInstanceOf(NoNodeException.class).hasMessage("create " + base + "/missing/child: no node");
    }

    @Test
    void createOrSetDataAndIdempotentCreate(BatonClient client, TestInfo info) throws Exception {
        String path = base(info);
        client.create().orSetData().forPath(path, bytes("one"));
        client.create().orSetData().forPath(path, bytes("two"));
        assertThat(client.getData().forPath(path)).isEqualTo(bytes("two"));
        assertThatThrownBy(() -> client.create().forPath(path, bytes("three")))
            .isInstanceOf(NodeExistsException.class).hasMessage("create " + path + ": node already exists");
        // idempotent: the same data counts as "already done"; different data is still a conflict
        assertThat(client.create().idempotent().forPath(path, bytes("two"))).isEqualTo(path);
        assertThatThrownBy(() -> client.create().idempotent().forPath(path, bytes("other")))
            .isInstanceOf(NodeExistsException.class);
    }

    @Test
    void readsDataStatAndChildrenInBothForms(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        client.create().forPath(base, bytes("root"));
        for (String name : List.of("a", "b", "c")) {
            client.create().forPath(base + "/" + name, bytes(name));
        }
        NodeData data = client.getData().forPathWithStat(base);
        assertThat(data.data()).isEqualTo(bytes("root"));
        assertThat(data.stat().getNumChildren()).isEqualTo(3);
        assertThat(client.getData().forPathAsync(base + "/b").get(10, TimeUnit.SECONDS)).isEqualTo(bytes("b"));
        assertThat(client.getChildren().forPath(base)).containsExactlyInAnyOrder("a", "b", "c");
        NodeChildren children = client.getChildren().forPathWithStatAsync(base).get(10, TimeUnit.SECONDS);
        assertThat(children.children()).hasSize(3);
        assertThat(children.stat().getNumChildren()).isEqualTo(3);
        assertThat(client.checkExists().forPathAsync(base + "/nope").get(10, TimeUnit.SECONDS)).isNull();
        assertThatThrownBy(() -> client.getData().forPathAsync(base + "/nope").join())
            .hasCauseInstanceOf(NoNodeException.class);
    }

    @Test
    void setDataChecksVersionsAndIdempotentSetDataIsHarmless(BatonClient client, TestInfo info) throws Exception {
        String path = client.create().forPath(base(info), bytes("v0"));
        Stat s1 = client.setData().withVersion(0).forPath(path, bytes("v1"));
        assertThat(s1.getVersion()).isEqualTo(1);
        assertThatThrownBy(() -> client.setData().withVersion(0).forPath(path, bytes("stale")))
            .isInstanceOf(BadVersionException.class).hasMessage("setData " + path + ": version does not match");
        Stat s2 = client.setData().forPathAsync(path, bytes("v2")).get(10, TimeUnit.SECONDS);
        assertThat(s2.getVersion()).isEqualTo(2);
        assertThat(client.getData().forPath(path)).isEqualTo(bytes("v2"));
    }

    @Test
    void deletesWithVersionQuietlyAndWithChildren(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        client.create().creatingParentsIfNeeded().forPath(base + "/x/y/z");
        assertThatThrownBy(() -> client.delete().forPath(base + "/x"))
            .isInstanceOf(NotEmptyException.class);
        assertThatThrownBy(() -> client.delete().withVersion(7).forPath(base + "/x/y/z"))
            .isInstanceOf(BadVersionException.class);
        client.delete().deletingChildrenIfNeeded().forPath(base + "/x");
        assertThat(client.checkExists().forPath(base + "/x")).isNull();
        assertThatThrownBy(() -> client.delete().forPath(base + "/x")).isInstanceOf(NoNodeException.class);
        client.delete().quietly().forPath(base + "/x");
        client.create().forPath(base + "/async");
        client.delete().forPathAsync(base + "/async").get(10, TimeUnit.SECONDS);
        assertThat(client.checkExists().forPath(base + "/async")).isNull();
    }

    @Test
    void transactionsApplyAllOrNothingAndSayWhichOperationFailed(BatonClient client, TestInfo info) throws Exception {
        String base = client.create().forPath(base(info));
        List<TransactionResult> results = client.transaction()
            .create(base + "/a", bytes("a"))
            .create(base + "/seq-", bytes("s"), CreateMode.PERSISTENT_SEQUENTIAL)
            .setData(base, bytes("touched"))
            .check(base + "/a", 0)
            .commit();
        assertThat(results).extracting(TransactionResult::type).containsExactly(
            TransactionResult.Type.CREATE, TransactionResult.Type.CREATE, TransactionResult.Type.SET_DATA, TransactionResult.Type.CHECK);
        assertThat(results.get(1).path()).matches(base + "/seq-\\d{10}");
        assertThat(results.get(2).stat().getVersion()).isEqualTo(1);

        TransactionFailedException failure = (TransactionFailedException) org.assertj.core.api.Assertions.catchThrowable(() ->
            client.transaction().create(base + "/b", bytes("b")).delete(base + "/does-not-exist").commit());
        assertThat(failure.failedIndex()).isEqualTo(1);
        assertThat(failure.code()).isEqualTo(KeeperException.Code.NONODE);
        assertThat(failure.outcomes()).extracting(TransactionFailedException.OpOutcome::path)
            .containsExactly(base + "/b", base + "/does-not-exist");
        assertThat(client.checkExists().forPath(base + "/b")).as("nothing of a failed transaction applies").isNull();

        assertThatThrownBy(() -> client.transaction().check(base + "/a", 5).delete(base + "/a").commitAsync().join())
            .hasCauseInstanceOf(TransactionFailedException.class);
        assertThat(client.checkExists().forPath(base + "/a")).isNotNull();
        assertThatThrownBy(() -> client.transaction().commit())
            .isInstanceOf(BatonException.class).hasMessageContaining("nothing to commit");
    }

    @Test
    void oneShotWatchersRunOnTheEventExecutorNeverOnZooKeepersThread(BatonClient client, TestInfo info) throws Exception {
        String path = client.create().forPath(base(info), bytes("0"));
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        Watcher watcher = event -> seen.add(event.getType() + " " + event.getPath() + " on " + Thread.currentThread().getName());
        client.getData().usingWatcher(watcher).forPath(path);
        client.setData().forPath(path, bytes("1"));
        String event = seen.poll(10, TimeUnit.SECONDS);
        assertThat(event).startsWith("NodeDataChanged " + path + " on baton-").contains("-events").doesNotContain("EventThread");
    }

    @Test
    void asyncResultsNeverCompleteOnZooKeepersThreads(BatonClient client, TestInfo info) throws Exception {
        String base = client.create().forPath(base(info));
        List<java.util.concurrent.CompletableFuture<String>> threads = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            threads.add(client.create().forPathAsync(base + "/n" + i).thenApply(p -> Thread.currentThread().getName()));
        }
        for (var thread : threads) {
            assertThat(thread.get(10, TimeUnit.SECONDS)).doesNotContain("EventThread").doesNotContain("SendThread");
        }
    }

    @Test
    void persistentRecursiveWatchesSeeTheWholeSubtreeUntilRemoved(BatonClient client, TestInfo info) throws Exception {
        String base = client.create().forPath(base(info));
        BlockingQueue<WatchedEvent> events = new LinkedBlockingQueue<>();
        Watcher watcher = events::add;
        client.watches().add(base, AddWatchMode.PERSISTENT_RECURSIVE, watcher);
        client.create().forPath(base + "/a");
        client.create().forPath(base + "/a/b");
        client.setData().forPath(base + "/a/b", bytes("x"));
        assertThat(nextOfType(events).getPath()).isEqualTo(base + "/a");
        assertThat(nextOfType(events).getPath()).isEqualTo(base + "/a/b");
        assertThat(nextOfType(events).getType()).isEqualTo(Watcher.Event.EventType.NodeDataChanged);

        client.watches().remove(base, watcher, Watcher.WatcherType.Any);
        assertThat(nextOfType(events).getType()).as("ZooKeeper confirms the removal")
            .isEqualTo(Watcher.Event.EventType.PersistentWatchRemoved);
        client.create().forPath(base + "/after");
        client.sync().forPath(base);
        assertThat(events.poll(300, TimeUnit.MILLISECONDS)).as("no event after removal").isNull();
    }

    @Test
    void aWatcherRemovedAtOnePathKeepsItsWatchesAtTheOthers(BatonClient client, TestInfo info) throws Exception {
        String base = client.create().forPath(base(info));
        String plain = client.create().forPath(base + "/plain");
        String other = client.create().forPath(base + "/other");
        String tree = client.create().forPath(base + "/tree");
        BlockingQueue<WatchedEvent> events = new LinkedBlockingQueue<>();
        Watcher watcher = events::add;
        client.watches().add(plain, AddWatchMode.PERSISTENT, watcher);
        client.watches().add(other, AddWatchMode.PERSISTENT, watcher);
        client.watches().add(tree, AddWatchMode.PERSISTENT_RECURSIVE, watcher);

        // the recursive kind was never added at plain: only the persistent one is removed there
        client.watches().remove(plain, watcher, Watcher.WatcherType.Any);
        // and the persistent kind is still at other
        client.watches().remove(other, watcher, Watcher.WatcherType.Any);

        client.setData().forPath(plain, bytes("x"));
        client.setData().forPath(other, bytes("x"));
        client.create().forPath(tree + "/child");
        // events come in order: a watch left at plain or other would be heard before the child
        WatchedEvent next = nextOfType(events);
        while (next.getType() == Watcher.Event.EventType.PersistentWatchRemoved) {
            next = nextOfType(events);
        }
        assertThat(next.getType()).as("the first event after the removals: %s", next).isEqualTo(Watcher.Event.EventType.NodeCreated);
        assertThat(next.getPath()).isEqualTo(tree + "/child");

        client.watches().remove(tree, watcher, Watcher.WatcherType.Any);
        assertThatThrownBy(() -> client.watches().remove(tree, watcher, Watcher.WatcherType.Any))
            .as("removed once, not twice").isInstanceOf(ZooKeeperException.class).hasMessageContaining("removeWatches " + tree);
    }

    @Test
    void namespacesKeepPathsRelativeAndViewsShareTheSession(BatonClient client, TestInfo info) throws Exception {
        String ns = info.getTestMethod().orElseThrow().getName() + "/ns";
        BatonClient app = client.usingNamespace(ns);
        assertThat(app.namespace()).isEqualTo(ns);
        assertThat(app.sessionId()).isEqualTo(client.sessionId());
        assertThat(app.create().forPath("/config", bytes("v"))).isEqualTo("/config");
        assertThat(client.getData().forPath("/" + ns + "/config")).isEqualTo(bytes("v"));
        String seq = app.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).withProtection().forPath("/config/item-");
        assertThat(seq).startsWith("/config/_c_");
        assertThat(app.getChildren().forPath("/")).containsExactly("config");

        BlockingQueue<String> paths = new LinkedBlockingQueue<>();
        app.checkExists().usingWatcher(e -> paths.add(e.getPath())).forPath("/config");
        app.setData().forPath("/config", bytes("w"));
        assertThat(paths.poll(10, TimeUnit.SECONDS)).as("watch events carry the namespace-free path").isEqualTo("/config");
        assertThat(client.usingNamespace(null).namespace()).isNull();
    }

    @Test
    void aclsFromTheCallerOrTheProvider(@dev.baton.test.ConnectString String connect, TestInfo info) throws Exception {
        try (BatonClient owner = dev.baton.test.TestClients.started(BatonClient.builder().connectString(connect)
                 .authorization("digest", bytes("alice:secret")).aclProvider(AclProvider.CREATOR_ALL));
             BatonClient stranger = dev.baton.test.TestClients.started(connect, Duration.ofSeconds(10))) {
            String path = owner.create().forPath(base(info), bytes("private"));
            assertThat(owner.getData().forPath(path)).isEqualTo(bytes("private"));
            assertThatThrownBy(() -> stranger.getData().forPath(path))
                .isInstanceOf(NoAuthException.class).hasMessage("getData " + path + ": not authorized by the node's ACL");
            String open = owner.create().withAcl(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(path + "-open", bytes("public"));
            assertThat(stranger.getData().forPath(open)).isEqualTo(bytes("public"));
        }
    }

    private static WatchedEvent nextOfType(BlockingQueue<WatchedEvent> events) throws InterruptedException {
        while (true) {
            WatchedEvent e = events.poll(10, TimeUnit.SECONDS);
            assertThat(e).as("a watch event within 10 s").isNotNull();
            if (e.getType() != Watcher.Event.EventType.None) {
                return e;
            }
        }
    }

    @Test
    void readingSeveralNodesGivesEachExistingOneOnceInTheOrderAsked(BatonClient client, TestInfo info) throws Exception {
        String a = client.create().forPath(base(info) + "-a", bytes("a"));
        String b = client.create().forPath(base(info) + "-b", bytes("b"));
        String missing = base(info) + "-missing";

        Map<String, NodeData> two = client.getData().forPathsAsync(List.of(b, a), 1024).get(10, TimeUnit.SECONDS);
        assertThat(two.keySet()).as("two different paths, in the order asked").containsExactly(b, a);
        assertThat(two.get(a).data()).isEqualTo(bytes("a"));
        assertThat(two.get(b).data()).isEqualTo(bytes("b"));
        assertThat(two.get(b).stat().getMzxid()).isEqualTo(client.checkExists().forPath(b).getMzxid());

        assertThat(client.getData().forPaths(List.of(a, a), 1024).keySet()).as("one path twice").containsExactly(a);
        assertThat(client.getData().forPaths(List.of(a, missing, b, a), 1024).keySet())
            .as("a repeat and a node that does not exist").containsExactly(a, b);
        assertThat(client.getData().forPaths(List.of(missing), 1024)).as("only a missing node").isEmpty();
        assertThat(client.getData().forPaths(List.of(), 1024)).as("no paths").isEmpty();
        // nodes that may hold half a MiB go one to a batch: several parts, answered in the order asked
        assertThat(client.getData().forPaths(List.of(b, a), 512 * 1024).keySet()).as("one read per batch").containsExactly(b, a);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}

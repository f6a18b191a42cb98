package dev.baton.framework;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.ChildrenCache;
import dev.baton.framework.cache.NodeCache;
import dev.baton.framework.cache.SnapshotCache;
import dev.baton.framework.cache.TreeCache;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CutOffClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Caches started while the ensemble is out of reach: {@code start()} returns without a
 * connection, and the cache loads, then follows changes, once the connection comes (after an
 * outage longer than the client's connection timeout).
 */
@EnsembleTest
class CachesStartWithoutConnectionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void treeCacheStartsWithoutAConnectionAndFillsOnceConnected(BatonClient writer) throws Exception {
        String base = "/offline-caches/tree";
        writer.create().creatingParentsIfNeeded().forPath(base + "/a/b", bytes("b"));
        try (CutOffClient cutOff = CutOffClient.start(ensemble);
             TreeCache cache = TreeCache.builder(cutOff.client(), base).build()) {
            cutOff.assertStartsPromptly("tree cache", cache::start);
            cutOff.outlastConnectionTimeout();
            assertThat(cache.snapshot()).isEmpty();

            cutOff.connect();

            assertThat(cache.awaitInitialized(WAIT)).as("loaded once connected").isTrue();
            assertThat(cache.snapshot()).containsOnlyKeys(base, base + "/a", base + "/a/b");
            writer.create().forPath(base + "/a/c", bytes("c"));
            await().atMost(WAIT).until(() -> data(cache.get(base + "/a/c")).equals("c"));
        }
    }

    @Test
    void nodeCacheStartsWithoutAConnectionAndFillsOnceConnected(BatonClient writer) throws Exception {
        String path = "/offline-caches/node";
        writer.create().creatingParentsIfNeeded().forPath(path, bytes("v1"));
        try (CutOffClient cutOff = CutOffClient.start(ensemble);
             NodeCache cache = new NodeCache(cutOff.client(), path)) {
            cutOff.assertStartsPromptly("node cache", cache::start);
            cutOff.outlastConnectionTimeout();
            assertThat(cache.current()).isEmpty();

            cutOff.connect();

            assertThat(cache.awaitInitialized(WAIT)).as("loaded once connected").isTrue();
            assertThat(data(cache.current())).isEqualTo("v1");
            writer.setData().forPath(path, bytes("v2"));
            await().atMost(WAIT).until(() -> data(cache.current()).equals("v2"));
        }
    }

    @Test
    void childrenCacheStartsWithoutAConnectionAndFillsOnceConnected(BatonClient writer) throws Exception {
        String path = "/offline-caches/children";
        writer.create().creatingParentsIfNeeded().forPath(path + "/one", bytes("1"));
        try (CutOffClient cutOff = CutOffClient.start(ensemble);
             ChildrenCache cache = new ChildrenCache(cutOff.client(), path)) {
            cutOff.assertStartsPromptly("children cache", cache::start);
            cutOff.outlastConnectionTimeout();
            assertThat(cache.children()).isEmpty();

            cutOff.connect();

            assertThat(cache.awaitInitialized(WAIT)).as("loaded once connected").isTrue();
            assertThat(cache.children()).containsOnlyKeys("one");
            writer.create().forPath(path + "/two", bytes("2"));
            await().atMost(WAIT).until(() -> cache.children().keySet().equals(java.util.Set.of("one", "two")));
        }
    }

    @Test
    void cachesOnAClientThatWasNeverStartedRefuseAtOnceAndLoadOnceItIs(BatonClient writer) throws Exception {
        // the newcomer's slip: build(), then the caches, and client.start() forgotten. Until
        // 2026-11-28 start() returned, the caches stayed empty and awaitInitialized simply ran out.
        String base = "/unstarted-caches";
        writer.create().creatingParentsIfNeeded().forPath(base + "/node/child", bytes("c"));
        try (BatonClient unstarted = BatonClient.builder().connectString(ensemble.connectString()).build();
             TreeCache tree = TreeCache.builder(unstarted, base).build();
             NodeCache node = new NodeCache(unstarted, base + "/node");
             ChildrenCache children = new ChildrenCache(unstarted, base + "/node");
             SnapshotCache snapshots = SnapshotCache.builder(unstarted, base).build()) {
            assertThatThrownBy(tree::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the cache /unstarted-caches: the client is not started; call start() first");
            assertThatThrownBy(node::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the cache /unstarted-caches/node: the client is not started; call start() first");
            assertThatThrownBy(children::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the cache /unstarted-caches/node: the client is not started; call start() first");
            assertThatThrownBy(snapshots::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the snapshot cache /unstarted-caches: the client is not started; call start() first");

            unstarted.start();
            tree.start();
            node.start();
            children.start();
            snapshots.start();
            assertThat(tree.awaitInitialized(WAIT)).as("the same tree cache loads once its client is started").isTrue();
            assertThat(node.awaitInitialized(WAIT)).isTrue();
            assertThat(children.awaitInitialized(WAIT)).isTrue();
            assertThat(snapshots.awaitInitialized(WAIT)).isTrue();
            assertThat(tree.snapshot()).containsKey(base + "/node/child");
            assertThat(children.children()).containsOnlyKeys("child");
            assertThat(snapshots.current().nodes()).containsKey(base + "/node/child");
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    private static String data(Optional<ChildData> node) {
        return node.map(n -> new String(n.data(), UTF_8)).orElse("");
    }
}

package dev.baton.framework.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SnapshotCache.Builder#rootOnly()}: a cache of one node, as a node cache, whatever lies below
 * it — children it may not read included.
 */
@EnsembleTest
class SnapshotCacheRootOnlyTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aCacheOfTheRootAloneKeepsAndTellsTheRootOnly(BatonClient client) throws Exception {
        String root = "/root-only/value";
        client.create().creatingParentsIfNeeded().forPath(root, "v0".getBytes(UTF_8));
        client.create().forPath(root + "/child", "c0".getBytes(UTF_8));
        List<Set<String>> told = new CopyOnWriteArrayList<>();
        try (SnapshotCache cache = SnapshotCache.builder(client, root).rootOnly().build()) {
            cache.addListener((previous, current, changed) -> told.add(changed));
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            assertThat(cache.current().nodes().keySet()).as("the root alone").containsExactly(root);

            client.setData().forPath(root + "/child", "c1".getBytes(UTF_8));
            client.create().forPath(root + "/other");
            client.setData().forPath(root, "v1".getBytes(UTF_8));
            await("the root's change told").atMost(WAIT)
                .until(() -> new String(cache.current().nodes().get(root).data(), UTF_8).equals("v1"));
            assertThat(cache.current().nodes().keySet()).containsExactly(root);
            assertThat(told).as("every change told is the root's").allSatisfy(changed -> assertThat(changed).containsExactly(root));
        }
    }

    @Test
    void aFenceBelowARootOnlyCacheIsRefused(BatonClient client) {
        SnapshotCache.Builder builder = SnapshotCache.builder(client, "/root-only/fenced").fence("/root-only/fenced/.fence").rootOnly();
        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("/root-only/fenced/.fence");
    }
}

package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.cache.TreeCache;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Ticket;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

@EnsembleTest
class SmokeTest {
    @Test
    void basics(BatonClient client) throws Exception {
        assertThat(client.create().forPath("/a", "x".getBytes())).isEqualTo("/a");
        assertThat(client.getData().forPath("/a")).isEqualTo("x".getBytes());
        String seq = client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).withProtection().creatingParentContainersIfNeeded().forPath("/l/lock-");
        assertThat(seq).startsWith("/l/_c_").contains("-lock-");
        assertThat(client.getChildren().forPath("/l")).hasSize(1);
        assertThat(client.create().forPathAsync("/b").get()).isEqualTo("/b");
        client.delete().forPath("/a");
        assertThat(client.checkExists().forPath("/a")).isNull();
    }

    @Test
    void engine(BatonClient a, BatonClient b) throws Exception {
        Contention ca = Contention.of(a, "/engine", "lock-", ContentionRule.mutex());
        Contention cb = Contention.of(b, "/engine", "lock-", ContentionRule.mutex());
        Ticket t1 = ca.acquireBlocking(new byte[0], Duration.ofSeconds(5));
        assertThat(t1).isNotNull();
        CompletableFuture<Ticket> t2 = cb.acquire(new byte[0], Duration.ofSeconds(30));
        await().until(() -> ca.contenders().get().size() == 2);
        assertThat(t2).isNotDone();
        ca.release(t1).get();
        Ticket second = t2.get();
        assertThat(second.fencingToken()).isGreaterThan(t1.fencingToken());
        assertThat(cb.acquireBlocking(new byte[0], Duration.ofMillis(200))).isNull();
        await().until(() -> cb.contenders().get().size() == 1);
    }

    @Test
    void cache(BatonClient client) throws Exception {
        try (TreeCache cache = TreeCache.builder(client, "/tree").build()) {
            cache.start();
            assertThat(cache.awaitInitialized(Duration.ofSeconds(10))).isTrue();
            client.create().creatingParentsIfNeeded().forPath("/tree/x/y", "1".getBytes());
            await().until(() -> cache.get("/tree/x/y").isPresent());
            client.setData().forPath("/tree/x/y", "2".getBytes());
            await().until(() -> new String(cache.get("/tree/x/y").get().data()).equals("2"));
            client.delete().deletingChildrenIfNeeded().forPath("/tree/x");
            await().until(() -> cache.get("/tree/x").isEmpty() && cache.get("/tree/x/y").isEmpty());
        }
    }
}

package dev.baton.framework;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.cache.CacheEvent;
import dev.baton.framework.cache.SnapshotCache;
import dev.baton.framework.cache.TreeCache;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.FullPool;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An executor of the caller's that refuses Baton's listener calls for a while (a bounded pool that
 * is full) loses none of them: once it takes work again they arrive, in order, with no further
 * change needed to push them. Before, the first refusal dropped everything queued, and a
 * {@link SnapshotCache}, whose announcements coalesce into the one still queued, announced nothing
 * ever again.
 */
@EnsembleTest
class RefusingExecutorTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int WRITES = 20;

    EmbeddedEnsemble ensemble;

    @Test
    void connectionStatesRefusedByTheEventExecutorReachListenersInOrderOnceItTakesWork() throws Exception {
        List<ConnectionState> heard = new CopyOnWriteArrayList<>();
        try (FullPool events = new FullPool("full-events");
             ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofSeconds(2)).eventExecutor(events).build()) {
            client.addConnectionStateListener((c, state) -> heard.add(state));
            events.refuse(true);
            client.start();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.CONNECTED);
            proxy.cut();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.SUSPENDED);
            proxy.heal();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.RECONNECTED);
            assertThat(events.refused()).as("the executor refused the deliveries").isPositive();
            assertThat(heard).as("nothing delivered while it refuses").isEmpty();

            events.refuse(false); // and nothing else happens: the client hands the queued states over by itself
            await("the listener hears the three states").atMost(WAIT).until(() -> heard.size() == 3);
            assertThat(heard).containsExactly(ConnectionState.CONNECTED, ConnectionState.SUSPENDED, ConnectionState.RECONNECTED);
        }
    }

    @Test
    void aTreeCacheWhoseExecutorRefusedEndsOnTheLatestValue(BatonClient client) throws Exception {
        String path = "/refusing/tree/n";
        client.create().creatingParentsIfNeeded().forPath(path, "0".getBytes(UTF_8));
        AtomicReference<String> lastHeard = new AtomicReference<>();
        try (FullPool listeners = new FullPool("full-tree-listeners");
             TreeCache cache = TreeCache.builder(client, "/refusing/tree").executor(listeners).build()) {
            cache.addListener(event -> {
                if (event.type() == CacheEvent.Type.UPDATED && event.node().path().equals(path)) {
                    lastHeard.set(new String(event.node().data(), UTF_8));
                }
            });
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();

            listeners.refuse(true);
            String last = Integer.toString(WRITES);
            for (int i = 1; i <= WRITES; i++) {
                client.setData().forPath(path, Integer.toString(i).getBytes(UTF_8));
            }
            await().atMost(WAIT).until(() -> cache.get(path).map(n -> new String(n.data(), UTF_8)).orElse("").equals(last));
            assertThat(listeners.refused()).as("the executor refused the events").isPositive();

            listeners.refuse(false); // no write after this one
            await("the listener hears the last value").atMost(WAIT).until(() -> last.equals(lastHeard.get()));
        }
    }

    @Test
    void aSnapshotCacheOnAClientWhoseEventExecutorRefusedEndsOnTheLatestValue() throws Exception {
        String root = "/refusing/snapshot";
        String path = root + "/n";
        AtomicReference<String> lastHeard = new AtomicReference<>();
        try (FullPool events = new FullPool("full-events");
             BatonClient client = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
                 .eventExecutor(events));
             SnapshotCache cache = SnapshotCache.builder(client, root).build()) {
            client.create().creatingParentsIfNeeded().forPath(path, "0".getBytes(UTF_8));
            cache.addListener((previous, current, changed) ->
                lastHeard.set(current.get(path).map(n -> new String(n.data(), UTF_8)).orElse(null)));
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            await().atMost(WAIT).until(() -> "0".equals(lastHeard.get()));

            events.refuse(true);
            String last = Integer.toString(WRITES);
            for (int i = 1; i < WRITES; i++) {
                client.setData().forPath(path, Integer.toString(i).getBytes(UTF_8));
            }
            // As in SnapshotCacheCoalescingTest: an asynchronous call's answer is taken on ZooKeeper's event thread, in order
            // with the watch events the cache handles there; once the last write's future and a read sent after it complete,
            // the cache has read the last value and made its snapshot, which waits for the refusing executor.
            Futures.await(client.setData().forPathAsync(path, last.getBytes(UTF_8)));
            Futures.await(client.getData().forPathAsync(path));
            assertThat(events.refused()).as("the executor refused the announcements").isPositive();
            assertThat(lastHeard.get()).as("nothing announced while it refuses").isEqualTo("0");

            events.refuse(false); // no write after this one
            await("the listener hears the last value").atMost(WAIT).until(() -> last.equals(lastHeard.get()));
        }
    }
}

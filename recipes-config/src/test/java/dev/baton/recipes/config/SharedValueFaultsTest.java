package dev.baton.recipes.config;

import static dev.baton.recipes.config.ConfigStoreTest.WAIT;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A SharedValue's watcher behind a proxy loses its connection, then its session, while another
 * client writes: it keeps its last value meanwhile, ends on the latest, and its listeners run on
 * its client's event executor throughout (never on ZooKeeper's event thread, where its cache keeps
 * its books).
 */
@EnsembleTest
class SharedValueFaultsTest {
    EmbeddedEnsemble ensemble;

    @Test
    void aWatchingValueEndsOnTheLatestAfterACutAndASessionExpiryAndTellsOnItsClientsExecutor(BatonClient writerClient)
        throws Exception {
        String path = "/shared/faults";
        ExecutorService listenerThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "shared-value-listeners"));
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString());
             BatonClient watched = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(3)).connectionTimeout(Duration.ofSeconds(2)).eventExecutor(listenerThread));
             SharedValue writer = new SharedValue(writerClient, path, "0".getBytes(UTF_8));
             SharedValue reader = new SharedValue(watched, path, "seed".getBytes(UTF_8))) {
            writer.start();
            List<String> heard = new CopyOnWriteArrayList<>();
            Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
            reader.addListener((value, bytes) -> {
                threads.add(Thread.currentThread().getName());
                heard.add(new String(bytes, UTF_8));
            });
            reader.start();
            writer.setValue("1".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> heard.contains("1"));

            proxy.cut();
            await().atMost(WAIT).until(() -> watched.connectionState() == ConnectionState.SUSPENDED);
            for (int i = 2; i <= 5; i++) {
                writer.setValue(Integer.toString(i).getBytes(UTF_8));
            }
            assertThat(reader.getValue()).as("still readable, the last value seen").isEqualTo("1".getBytes(UTF_8));
            proxy.heal();
            await("caught up after the cut").atMost(WAIT).until(() -> heard.contains("5"));

            long before = watched.sessionId();
            SessionKiller.expire(watched, ensemble.connectString(), WAIT);
            for (int i = 6; i <= 9; i++) {
                writer.setValue(Integer.toString(i).getBytes(UTF_8));
            }
            await("caught up on a new session").atMost(WAIT)
                .until(() -> watched.sessionId() != before && new String(reader.getValue(), UTF_8).equals("9"));
            writer.setValue("10".getBytes(UTF_8));
            await("watching again on the new session").atMost(WAIT).until(() -> heard.get(heard.size() - 1).equals("10"));
            assertThat(heard.stream().filter(v -> !v.equals("seed") && !v.equals("0")).map(Integer::parseInt).toList())
                .as("never goes back").isSorted();
            assertThat(threads).as("listeners run on the client's event executor only").containsExactly("shared-value-listeners");
        } finally {
            listenerThread.shutdownNow();
        }
    }

    @Test
    void nodesBelowTheValuesNodeNeitherChangeTheValueNorWakeItsListeners(BatonClient writerClient, BatonClient watching)
        throws Exception {
        String path = "/shared/parent";
        try (SharedValue writer = new SharedValue(writerClient, path, "0".getBytes(UTF_8));
             SharedValue reader = new SharedValue(watching, path, "seed".getBytes(UTF_8))) {
            writer.start();
            List<String> heard = new CopyOnWriteArrayList<>();
            reader.addListener((value, bytes) -> heard.add(new String(bytes, UTF_8)));
            reader.start();
            await("told of the value as first loaded").atMost(WAIT).until(() -> heard.contains("0"));
            heard.clear();
            // someone else's nodes under the value's node (Curator's SharedValue ignores them too)
            for (int i = 0; i < 5; i++) {
                writerClient.create().forPath(path + "/child-" + i, ("child " + i).getBytes(UTF_8));
                writerClient.setData().forPath(path + "/child-" + i, ("child " + i + " again").getBytes(UTF_8));
            }
            writer.setValue("1".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> heard.contains("1"));
            assertThat(heard).as("told of the value's changes only, once each").containsExactly("1");
            assertThat(reader.getValue()).isEqualTo("1".getBytes(UTF_8));
        }
    }

    /**
     * A node below the value's node that this client may not read (another user's, with a
     * creator-only ACL) is no part of the value: the value still follows every write, as Curator's
     * and a node cache's, which never read below the node.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aNodeBelowTheValuesNodeThatItCannotReadDoesNotStopTheValue(BatonClient writerClient, BatonClient watching)
        throws Exception {
        String path = "/shared/unreadable-child";
        try (BatonClient owner = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
                 .authorization("digest", "owner:secret".getBytes(UTF_8)));
             SharedValue writer = new SharedValue(writerClient, path, "0".getBytes(UTF_8));
             SharedValue reader = new SharedValue(watching, path, "seed".getBytes(UTF_8))) {
            writer.start();
            owner.create().withAcl(ZooDefs.Ids.CREATOR_ALL_ACL).forPath(path + "/private", "not yours".getBytes(UTF_8));
            List<String> heard = new CopyOnWriteArrayList<>();
            reader.addListener((value, bytes) -> heard.add(new String(bytes, UTF_8)));
            reader.start();
            assertThat(reader.getValue()).as("read at start").isEqualTo("0".getBytes(UTF_8));

            writer.setValue("1".getBytes(UTF_8));
            await("the reader follows the write").atMost(WAIT).until(() -> new String(reader.getValue(), UTF_8).equals("1"));
            assertThat(heard).as("its listeners were told").contains("1");
        }
    }
}

package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.Optional;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A key that is also a folder: the store makes folders for nested keys as container nodes, which
 * the servers delete once they have no child, whatever their data. A value given to such a folder
 * must outlive the removal of its last nested key (the embedded servers check containers every
 * second).
 */
@EnsembleTest
class ValuedFolderTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void aReleaseRemovingTheLastNestedKeyKeepsTheFoldersValue(BatonClient client, TestInfo info) throws Exception {
        String base = ConfigStoreTest.base(info);
        try (ConfigStore store = ConfigStoreTest.started(client, base)) {
            store.release().set("db/url", "jdbc:one").commit();
            store.set("db", "primary");
            store.release().set("other/x", "1").set("other", "kept-too").commit(); // made together: 'other' is a plain node

            store.release().remove("db/url").commit();
            store.release().remove("other/x").commit();
            afterTheServersContainerCheck(client, base);

            assertThat(data(client, base + "/db")).as("the folder's value after its last nested key went").isEqualTo("primary");
            assertThat(data(client, base + "/other")).isEqualTo("kept-too");
            await().atMost(WAIT).until(() -> store.getString("db").isPresent() && !store.keys().contains("db/url"));
            assertThat(store.keys()).containsExactly("db", "other");
            assertThat(store.getString("db")).contains("primary");
        }
    }

    @Test
    void aReleaseThatAlsoChangesTheFoldersValueKeepsTheNewValue(BatonClient client, TestInfo info) throws Exception {
        String base = ConfigStoreTest.base(info);
        try (ConfigStore store = ConfigStoreTest.started(client, base)) {
            store.release().set("db/url", "jdbc:one").commit();
            store.set("db", "primary");

            store.release().remove("db/url").set("db", "standalone").commit();
            afterTheServersContainerCheck(client, base);

            assertThat(data(client, base + "/db")).isEqualTo("standalone");
            await().atMost(WAIT).until(() -> store.getString("db").equals(Optional.of("standalone")));
        }
    }

    @Test
    void aPlainRemovalOfTheLastNestedKeyKeepsTheFoldersValue(BatonClient client, TestInfo info) throws Exception {
        String base = ConfigStoreTest.base(info);
        try (ConfigStore store = ConfigStoreTest.started(client, base)) {
            store.set("cache/ttl", "30s");
            store.set("cache", "on");

            assertThat(store.remove("cache/ttl")).isTrue();
            afterTheServersContainerCheck(client, base);

            assertThat(data(client, base + "/cache")).isEqualTo("on");
        }
    }

    /**
     * Returns once the servers' container check has run over everything empty now: a probe
     * container emptied after this call is gone, then a second one made after that (the first
     * could go in a pass that had not yet reached the node under test; the second only in a later
     * pass, and passes run one after another).
     */
    private static void afterTheServersContainerCheck(BatonClient client, String base) throws Exception {
        for (int pass = 0; pass < 2; pass++) {
            String probe = base + "-probe-" + pass;
            client.create().withMode(CreateMode.CONTAINER).forPath(probe);
            client.create().forPath(probe + "/child");
            client.delete().forPath(probe + "/child");
            await().atMost(WAIT).until(() -> client.checkExists().forPath(probe) == null);
        }
    }

    private static String data(BatonClient client, String path) throws Exception {
        return new String(client.getData().forPath(path), UTF_8);
    }
}

package dev.baton.recipes.config;

import static dev.baton.recipes.config.ConfigStoreTest.WAIT;
import static dev.baton.recipes.config.ConfigStoreTest.started;
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
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A watcher behind a proxy loses its connection, then its session, while releases go on: it
 * keeps reading its last snapshot meanwhile, never goes back, and ends on the latest release.
 */
@EnsembleTest
class WatchFaultsTest {
    EmbeddedEnsemble ensemble;

    @Test
    void aWatcherEndsOnTheLatestReleaseAfterACutAndASessionExpiry(BatonClient writerClient) throws Exception {
        String base = "/config/faults";
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString());
             BatonClient watched = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(3)).connectionTimeout(Duration.ofSeconds(2)));
             ConfigStore writer = started(writerClient, base);
             ConfigStore reader = started(watched, base)) {
            List<Long> seen = new CopyOnWriteArrayList<>();
            reader.watchKey("release/token", update -> seen.add(update.release()));
            long n = writer.release().set("release/token", "1").commit().number();
            await().atMost(WAIT).until(() -> seen.contains(n));

            proxy.cut();
            await().atMost(WAIT).until(() -> watched.connectionState() == ConnectionState.SUSPENDED);
            for (int i = 2; i <= 5; i++) {
                writer.release().set("release/token", Integer.toString(i)).commit();
            }
            assertThat(reader.getString("release/token")).as("still readable, from the last snapshot").contains("1");
            proxy.heal();
            await("caught up after the cut").atMost(WAIT).until(() -> reader.snapshot().release() == 5 && seen.contains(5L));

            long before = watched.sessionId();
            SessionKiller.expire(watched, ensemble.connectString(), WAIT);
            for (int i = 6; i <= 9; i++) {
                writer.release().set("release/token", Integer.toString(i)).commit();
            }
            await("caught up on a new session").atMost(WAIT)
                .until(() -> watched.sessionId() != before && reader.snapshot().release() == 9);
            await().atMost(WAIT).until(() -> seen.get(seen.size() - 1) == 9L);
            writer.release().set("release/token", "10").commit();
            await("watching again on the new session").atMost(WAIT).until(() -> seen.get(seen.size() - 1) == 10L);
            assertThat(reader.getString("release/token")).isEqualTo(Optional.of("10"));
            assertThat(seen).as("never goes back").isSorted();
        }
    }
}

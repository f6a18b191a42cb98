package dev.baton.recipes.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.FullPool;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A store's watch never ends stale because the client's event executor (the caller's) refused
 * for a while: once it takes work again the listener gets the latest value, with no write after
 * the refusals. Before, the first refused hand-off dropped the store's snapshot announcement, and
 * since announcements coalesce into the one still queued, no update reached a listener again.
 */
@EnsembleTest
class RefusingEventExecutorTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int WRITES = 20;

    EmbeddedEnsemble ensemble;

    @Test
    void aWatchEndsOnTheLatestValueAfterTheEventExecutorRefusedForAWhile() throws Exception {
        AtomicReference<String> lastHeard = new AtomicReference<>();
        try (FullPool events = new FullPool("full-events");
             BatonClient client = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
                 .eventExecutor(events));
             ConfigStore store = ConfigStoreTest.started(client, "/config/refusing")) {
            store.set("pool/size", "0");
            store.watchKey("pool/size", update -> update.changes().forEach(c -> lastHeard.set(c.valueAsString().orElse(null))));
            await().atMost(WAIT).until(() -> "0".equals(lastHeard.get()));

            events.refuse(true);
            for (int i = 1; i <= WRITES; i++) {
                store.set("pool/size", Integer.toString(i));
            }
            await().atMost(WAIT).until(() -> events.refused() > 0);
            assertThat(lastHeard.get()).as("nothing reaches the listener while the executor refuses").isEqualTo("0");

            events.refuse(false); // no write after this one
            await("the watch hears the last value").atMost(WAIT).until(() -> Integer.toString(WRITES).equals(lastHeard.get()));
        }
    }
}

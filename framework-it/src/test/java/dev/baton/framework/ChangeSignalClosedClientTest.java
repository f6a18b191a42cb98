package dev.baton.framework;

import static dev.baton.test.CloseUnderWait.endsWithClientClosed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.OneShotWatches;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link ChangeSignal#awaitCondition} refuses to wait on once its client is closed: it ends with
 * {@link ClientClosedException}, whatever its check does, instead of waiting for a watch event or a
 * reconnect that a closed client never delivers. Every recipe that waits through it relies on this.
 */
@EnsembleTest
class ChangeSignalClosedClientTest {
    EmbeddedEnsemble ensemble;

    private BatonClient newClient() {
        return TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
    }

    @Test
    void aWaitOnAWatchedNodeEndsWhenTheClientCloses() throws Exception {
        BatonClient client = newClient();
        String path = "/change-signal/never";
        endsWithClientClosed(client, () -> OneShotWatches.EXISTS.on(client).contains(path),
            () -> ChangeSignal.awaitCondition(client,
                watcher -> client.checkExists().usingWatcher(watcher).forPath(path) != null, Deadline.none()));
    }

    /**
     * A check that reads nothing while there is no connection (it waits for the reconnect to look)
     * says "not yet" on a closed client too: the wait, not the check, must see that the client is closed.
     */
    @Test
    void aWaitWhoseCheckReadsNothingEndsWhenTheClientCloses() throws Exception {
        BatonClient client = newClient();
        String path = "/change-signal/quiet";
        AtomicInteger looks = new AtomicInteger();
        ClientClosedException closed = endsWithClientClosed(client, () -> OneShotWatches.EXISTS.on(client).contains(path),
            () -> ChangeSignal.awaitCondition(client, watcher -> {
                if (looks.getAndIncrement() > 0 && !client.connectionState().isConnected()) {
                    return false;   // the reconnect wakes us again
                }
                return client.checkExists().usingWatcher(watcher).forPath(path) != null;
            }, Deadline.none()));
        assertThat(closed).hasMessageContaining("the client is closed");
    }
}

package dev.baton.recipes.queue;

import static dev.baton.test.CloseUnderWait.endsWithClientClosed;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.OneShotWatches;
import dev.baton.test.TestClients;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A take from an empty queue whose client is closed under it ends at once with
 * {@code ClientClosedException}, not at its next look at the queue (its watch never fires on a
 * closed client).
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    EmbeddedEnsemble ensemble;

    @Test
    void takeFromAnEmptyQueueEnds(TestInfo info) throws Exception {
        String path = "/closed-under-wait/" + info.getTestMethod().orElseThrow().getName();
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path);
        // the look at the empty queue leaves a child watch on it
        endsWithClientClosed(client, () -> OneShotWatches.CHILD.on(client).contains(path), queue::take);
    }
}

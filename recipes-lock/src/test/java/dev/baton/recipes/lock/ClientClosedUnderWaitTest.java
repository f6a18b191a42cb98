package dev.baton.recipes.lock;

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
 * An acquisition (with or without a time limit) whose client is closed while it waits in line ends at once
 * with {@code ClientClosedException}: the client never connects again, so nothing it waits for can
 * come.
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    EmbeddedEnsemble ensemble;

    private static String path(TestInfo info) {
        return "/closed-under-wait/" + info.getTestMethod().orElseThrow().getName();
    }

    /** Waits in line once its watch (on the node before it, or on the line) is set. */
    private static boolean inLine(BatonClient client) {
        return !OneShotWatches.on(client, OneShotWatches.EXISTS, OneShotWatches.DATA, OneShotWatches.CHILD).isEmpty();
    }

    @Test
    void mutexAcquireEnds(BatonClient holder, TestInfo info) throws Exception {
        String path = path(info);
        new InterProcessMutex(holder, path).acquire();
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        InterProcessMutex mutex = new InterProcessMutex(client, path);
        endsWithClientClosed(client, () -> inLine(client), mutex::acquire);
    }

    /** A time limit changes nothing: the wait ends at the close, not at the limit. */
    @Test
    void mutexAcquireWithATimeoutEnds(BatonClient holder, TestInfo info) throws Exception {
        String path = path(info);
        new InterProcessMutex(holder, path).acquire();
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        InterProcessMutex mutex = new InterProcessMutex(client, path);
        endsWithClientClosed(client, () -> inLine(client), () -> mutex.acquire(Duration.ofSeconds(60)));
    }

    @Test
    void semaphoreAcquireEnds(BatonClient holder, TestInfo info) throws Exception {
        String path = path(info);
        new InterProcessSemaphoreV2(holder, path, 1).acquire();
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, path, 1);
        endsWithClientClosed(client, () -> inLine(client), semaphore::acquire);
    }
}

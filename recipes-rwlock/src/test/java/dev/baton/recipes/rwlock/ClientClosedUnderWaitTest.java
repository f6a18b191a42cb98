package dev.baton.recipes.rwlock;

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
 * An acquisition waiting in line, with or without a time limit, ends at once with
 * {@code ClientClosedException} when its client is closed, not at its timeout: the client never
 * connects again, so the lock can never come to it.
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    /** Far longer than {@code CloseUnderWait.PROMPTLY}: a wait that runs its course fails the test. */
    private static final Duration LONG = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;

    private static String path(TestInfo info) {
        return "/closed-under-wait/" + info.getTestMethod().orElseThrow().getName();
    }

    /** Waits in line once its watch (on the node before it) is set. */
    private static boolean inLine(BatonClient client) {
        return !OneShotWatches.on(client, OneShotWatches.EXISTS, OneShotWatches.DATA, OneShotWatches.CHILD).isEmpty();
    }

    @Test
    void aReaderBehindAWriterEnds(BatonClient holder, TestInfo info) throws Exception {
        String path = path(info);
        new InterProcessReadWriteLock(holder, path).writeLock().acquire();
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        InterProcessReadWriteLock lock = new InterProcessReadWriteLock(client, path);
        endsWithClientClosed(client, () -> inLine(client), () -> lock.readLock().acquire(LONG));
    }

    @Test
    void aWriterBehindAReaderEnds(BatonClient holder, TestInfo info) throws Exception {
        String path = path(info);
        new InterProcessReadWriteLock(holder, path).readLock().acquire();
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        InterProcessReadWriteLock lock = new InterProcessReadWriteLock(client, path);
        endsWithClientClosed(client, () -> inLine(client), lock.writeLock()::acquire);
    }
}

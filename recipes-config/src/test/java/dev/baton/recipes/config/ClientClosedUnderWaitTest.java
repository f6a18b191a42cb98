package dev.baton.recipes.config;

import static dev.baton.test.CloseUnderWait.endsWithClientClosedOnceParked;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CutOffClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A config store's wait (for its first snapshot, for a release to show) ends at once with
 * {@code ClientClosedException} when its client is closed, instead of waiting out its timeout:
 * a closed client hears of no release any more.
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    /** Far longer than {@code CloseUnderWait.PROMPTLY}: a wait that runs its course fails the test. */
    private static final Duration LONG = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;

    @Test
    void awaitingAReleaseThatNeverComesEnds() throws Exception {
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        ConfigStore store = ConfigStore.builder(client, "/closed-under-wait/release").build();
        store.start();
        assertThat(store.awaitInitialized(Duration.ofSeconds(30))).isTrue();
        var closed = endsWithClientClosedOnceParked(client, () -> store.awaitRelease(1_000, LONG));
        assertThat(closed).hasMessageContaining("/closed-under-wait/release");
    }

    @Test
    void awaitingTheFirstSnapshotWithoutAConnectionEnds() throws Exception {
        try (CutOffClient cutOff = CutOffClient.start(ensemble)) {
            ConfigStore store = ConfigStore.builder(cutOff.client(), "/closed-under-wait/first").build();
            cutOff.assertStartsPromptly("config store", store::start);
            var closed = endsWithClientClosedOnceParked(cutOff.client(), () -> store.awaitInitialized(LONG));
            assertThat(closed).hasMessageContaining("/closed-under-wait/first");
        }
    }
}

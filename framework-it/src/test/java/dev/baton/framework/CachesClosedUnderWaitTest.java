package dev.baton.framework;

import static dev.baton.test.CloseUnderWait.endsWithClientClosedOnceParked;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.cache.SnapshotCache;
import dev.baton.framework.cache.TreeCache;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CutOffClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A cache's wait for its first load ends at once with {@link ClientClosedException} when its client
 * is closed, instead of waiting out its timeout: a closed client never connects again, so the load
 * never comes. Every recipe that waits for a cache to load (a transaction participant's start, a
 * group member's join) relies on this.
 */
@EnsembleTest
class CachesClosedUnderWaitTest {
    /** Far longer than {@code CloseUnderWait.PROMPTLY}: a wait that runs its course fails the test. */
    private static final Duration LONG = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;

    @Test
    void aTreeCacheWaitingForItsFirstLoadEnds() throws Exception {
        try (CutOffClient cutOff = CutOffClient.start(ensemble);
             TreeCache cache = TreeCache.builder(cutOff.client(), "/closed-under-wait/tree").build()) {
            cutOff.assertStartsPromptly("tree cache", cache::start);
            var closed = endsWithClientClosedOnceParked(cutOff.client(), () -> cache.awaitInitialized(LONG));
            assertThat(closed).hasMessageContaining("/closed-under-wait/tree");
        }
    }

    @Test
    void aSnapshotCacheWaitingForItsFirstSnapshotEnds() throws Exception {
        try (CutOffClient cutOff = CutOffClient.start(ensemble);
             SnapshotCache cache = SnapshotCache.builder(cutOff.client(), "/closed-under-wait/snapshots").build()) {
            cutOff.assertStartsPromptly("snapshot cache", cache::start);
            var closed = endsWithClientClosedOnceParked(cutOff.client(), () -> cache.awaitInitialized(LONG));
            assertThat(closed).hasMessageContaining("/closed-under-wait/snapshots");
        }
    }
}

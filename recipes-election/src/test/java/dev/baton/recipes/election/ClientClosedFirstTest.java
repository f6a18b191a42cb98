package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Closing the client before the latch or selector that uses it (a shutdown hook in the "wrong"
 * order, a framework that closes beans in its own order) still ends the leader's term before
 * the session does, so before anybody else can be elected. The old leader steps down slowly on
 * purpose ({@link SlowStepDown}).
 */
@EnsembleTest
class ClientClosedFirstTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void closingTheClientFirstTellsTheLatchNotLeaderBeforeTheNextLeaderIsElected(@ConnectString String connect,
                                                                                   BatonClient b) throws Exception {
        SlowStepDown run = new SlowStepDown();
        try (SlowStepDown.Contenders<LeaderLatch> latches = run.latches(connect, b, "/latch/client-closed-first")) {
            latches.a().close(); // the client first, the latch not at all

            await().atMost(WAIT).until(() -> run.history.grants() == 2);
            run.history.check().assertNeverTwoLeaders();
            assertThat(latches.first().state()).as("a latch whose client closed is closed").isEqualTo(LeaderLatch.State.CLOSED);
            latches.first().close(); // and closing it afterwards is harmless
        }
    }

    @Test
    void closingTheClientFirstEndsTakeLeadershipBeforeTheNextLeaderIsElected(@ConnectString String connect,
                                                                             BatonClient b) throws Exception {
        SlowStepDown run = new SlowStepDown();
        try (SlowStepDown.Contenders<LeaderSelector> selectors = run.selectors(connect, b, "/selector/client-closed-first")) {
            selectors.a().close();

            await().atMost(WAIT).until(() -> run.history.grants() == 2);
            run.history.check().assertNeverTwoLeaders();
            assertThat(selectors.first().state()).as("a selector whose client closed is closed")
                .isEqualTo(LeaderSelector.State.CLOSED);
            selectors.first().close();
        }
    }
}

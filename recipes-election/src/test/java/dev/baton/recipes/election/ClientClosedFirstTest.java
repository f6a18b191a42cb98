package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
        String path = "/latch/client-closed-first";
        SlowStepDown run = new SlowStepDown();
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderLatch first = new LeaderLatch(a, path, "a");
        first.addListener(run.latchA());
        first.start();
        assertThat(first.await(WAIT)).isTrue();
        try (LeaderLatch second = new LeaderLatch(b, path, "b")) {
            second.addListener(run.latchB());
            second.start();
            await().atMost(WAIT).until(() -> second.getParticipants().size() == 2);

            a.close(); // the client first, the latch not at all

            await().atMost(WAIT).until(() -> run.history.grants() == 2);
            run.history.check().assertNeverTwoLeaders();
            assertThat(first.state()).as("a latch whose client closed is closed").isEqualTo(LeaderLatch.State.CLOSED);
            first.close(); // and closing it afterwards is harmless
        }
    }

    @Test
    void closingTheClientFirstEndsTakeLeadershipBeforeTheNextLeaderIsElected(@ConnectString String connect,
                                                                             BatonClient b) throws Exception {
        String path = "/selector/client-closed-first";
        SlowStepDown run = new SlowStepDown();
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderSelector first = new LeaderSelector(a, path, "a", run.selectorA());
        first.start();
        assertThat(run.aLeads.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        try (LeaderSelector second = new LeaderSelector(b, path, "b", run.selectorB())) {
            second.start();
            await().atMost(WAIT).until(() -> second.getParticipants().size() == 2);

            a.close();

            await().atMost(WAIT).until(() -> run.history.grants() == 2);
            run.history.check().assertNeverTwoLeaders();
            assertThat(first.state()).as("a selector whose client closed is closed").isEqualTo(LeaderSelector.State.CLOSED);
            first.close();
        }
    }
}

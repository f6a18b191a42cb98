package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import dev.baton.test.history.LeadershipHistory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Closing the client before the latch or selector that uses it (a shutdown hook in the "wrong"
 * order, a framework that closes beans in its own order) still ends the leader's term before
 * the session does, so before anybody else can be elected.
 *
 * <p>The old leader's step-down takes its time on purpose: it waits (at most {@link #SLOW_STEP_DOWN})
 * for a successor, which must not come while it runs. When the recipe heard of the close only
 * as the session ended, the successor was elected within that wait and the history showed two
 * leaders; a machine too slow to elect within the wait lets this test pass, never fail, wrongly.
 */
@EnsembleTest
class ClientClosedFirstTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration SLOW_STEP_DOWN = Duration.ofSeconds(2);

    @Test
    void closingTheClientFirstTellsTheLatchNotLeaderBeforeTheNextLeaderIsElected(@ConnectString String connect,
                                                                                   BatonClient b) throws Exception {
        String path = "/latch/client-closed-first";
        LeadershipHistory history = new LeadershipHistory();
        CountDownLatch successorElected = new CountDownLatch(1);
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderLatch first = new LeaderLatch(a, path, "a");
        first.addListener(LeaderLatchListener.of(token -> history.granted("a", token), () -> {
            waitAtMost(successorElected, SLOW_STEP_DOWN);
            history.ended("a");
        }));
        first.start();
        assertThat(first.await(WAIT)).isTrue();
        try (LeaderLatch second = new LeaderLatch(b, path, "b")) {
            second.addListener(LeaderLatchListener.of(token -> {
                history.granted("b", token);
                successorElected.countDown();
            }, () -> history.ended("b")));
            second.start();
            await().atMost(WAIT).until(() -> second.getParticipants().size() == 2);

            a.close(); // the client first, the latch not at all

            await().atMost(WAIT).until(() -> history.grants() == 2);
            history.check().assertNeverTwoLeaders();
            assertThat(first.state()).as("a latch whose client closed is closed").isEqualTo(LeaderLatch.State.CLOSED);
            first.close(); // and closing it afterwards is harmless
        }
    }

    @Test
    void closingTheClientFirstEndsTakeLeadershipBeforeTheNextLeaderIsElected(@ConnectString String connect,
                                                                             BatonClient b) throws Exception {
        String path = "/selector/client-closed-first";
        LeadershipHistory history = new LeadershipHistory();
        CountDownLatch successorElected = new CountDownLatch(1);
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        CountDownLatch firstLeads = new CountDownLatch(1);
        LeaderSelector first = new LeaderSelector(a, path, "a", LeaderSelectorListener.withToken((client, token) -> {
            history.granted("a", token);
            firstLeads.countDown();
            try {
                new CountDownLatch(1).await(); // lead until interrupted
            } catch (InterruptedException e) {
                waitAtMost(successorElected, SLOW_STEP_DOWN);
                history.ended("a");
            }
        }));
        first.start();
        assertThat(firstLeads.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        try (LeaderSelector second = new LeaderSelector(b, path, "b", LeaderSelectorListener.withToken((client, token) -> {
            history.granted("b", token);
            successorElected.countDown();
            try {
                new CountDownLatch(1).await();
            } finally {
                history.ended("b");
            }
        }))) {
            second.start();
            await().atMost(WAIT).until(() -> second.getParticipants().size() == 2);

            a.close();

            await().atMost(WAIT).until(() -> history.grants() == 2);
            history.check().assertNeverTwoLeaders();
            assertThat(first.state()).as("a selector whose client closed is closed").isEqualTo(LeaderSelector.State.CLOSED);
            first.close();
        }
    }

    /** Waits for {@code latch} up to {@code timeout}; keeps the interrupt status. */
    private static void waitAtMost(CountDownLatch latch, Duration timeout) {
        try {
            latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

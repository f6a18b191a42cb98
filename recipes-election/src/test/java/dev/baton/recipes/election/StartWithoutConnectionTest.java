package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CutOffClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A participant that boots while the ensemble is out of reach: {@code start()} returns without a
 * connection, and the latch, selector or observer takes part in the election once it comes.
 */
@EnsembleTest
class StartWithoutConnectionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void latchStartsWithoutAConnectionJoinsTheLineOnceConnectedAndLeadsWhenItsTurnComes(BatonClient other) throws Exception {
        String path = "/offline/latch";
        try (LeaderLatch leader = new LeaderLatch(other, path, "leader");
             CutOffClient cutOff = CutOffClient.start(ensemble);
             LeaderLatch late = new LeaderLatch(cutOff.client(), path, "late")) {
            leader.start();
            assertThat(leader.await(WAIT)).isTrue();
            cutOff.assertStartsPromptly("leader latch", late::start);
            assertThat(late.state()).isEqualTo(LeaderLatch.State.WAITING);
            cutOff.outlastConnectionTimeout();

            cutOff.connect();

            await().atMost(WAIT).until(() -> leader.getParticipants().stream().map(Participant::id).toList().contains("late"));
            assertThat(late.hasLeadership()).isFalse();
            leader.close();
            assertThat(late.await(WAIT)).as("the late latch leads once the leader goes").isTrue();
            assertThat(late.getLeader().id()).isEqualTo("late");
        }
    }

    @Test
    void selectorStartsWithoutAConnectionAndTakesLeadershipOnceConnected() throws Exception {
        CountDownLatch leading = new CountDownLatch(1);
        try (CutOffClient cutOff = CutOffClient.start(ensemble);
             LeaderSelector selector = new LeaderSelector(cutOff.client(), "/offline/selector", "only", client -> {
                 leading.countDown();
                 new CountDownLatch(1).await(); // lead until closed
             })) {
            cutOff.assertStartsPromptly("leader selector", selector::start);
            assertThat(selector.hasLeadership()).isFalse();
            cutOff.outlastConnectionTimeout();

            cutOff.connect();

            assertThat(leading.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("takeLeadership called once connected").isTrue();
            assertThat(selector.hasLeadership()).isTrue();
        }
    }

    @Test
    void observerStartsWithoutAConnectionAndReportsTheLeaderOnceConnected(BatonClient other) throws Exception {
        String path = "/offline/observed";
        try (LeaderLatch leader = new LeaderLatch(other, path, "leader");
             CutOffClient cutOff = CutOffClient.start(ensemble);
             ElectionObserver observer = new ElectionObserver(cutOff.client(), path)) {
            leader.start();
            assertThat(leader.await(WAIT)).isTrue();
            cutOff.assertStartsPromptly("election observer", observer::start);
            cutOff.outlastConnectionTimeout();

            cutOff.connect();

            await().atMost(WAIT).until(() -> observer.current().orElse(null) instanceof ElectionEvent.LeaderChanged changed
                && changed.leader().id().equals("leader") && changed.token() == leader.leadershipToken());
        }
    }
}

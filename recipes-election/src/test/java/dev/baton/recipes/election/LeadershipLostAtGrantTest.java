package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.NoNodeException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.HeldBackSteps;
import dev.baton.test.TestClients;
import java.io.Closeable;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The line reaches a participant just as its connection drops (SUSPENDED: loss under the default
 * CONNECTION policy): it must not be told it leads with a term already lost. A latch's listener
 * hears {@code isLeader} only once it leads validly (after the reconnection, in the same term: the
 * same session still owns its node), and a selector's {@code takeLeadership} starts only while
 * {@code hasLeadership()} is true; neither is told it lost a term it was never told of. Made
 * deterministic as the lock module's {@code LostBeforeHandOutTest}: the participant's engine step
 * that grants (on the listing it makes once its predecessor is gone) is held back while its
 * connection is cut.
 */
@EnsembleTest
class LeadershipLostAtGrantTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    enum Kind { LATCH, SELECTOR }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aParticipantGrantedAsItsConnectionDropsIsNotToldItLeadsUntilItDoes(Kind kind, BatonClient other) throws Exception {
        String path = "/leadership-lost-at-grant/" + kind;
        List<String> heard = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> holderDone = new CompletableFuture<>();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient real = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(WAIT).connectionTimeout(WAIT))) {
            HeldBackSteps steps = HeldBackSteps.of(real);
            Closeable holder;
            Closeable waiter;
            if (kind == Kind.LATCH) {
                LeaderLatch first = new LeaderLatch(other, path, "first");
                first.start();
                assertThat(first.await(WAIT)).isTrue();
                holder = first;
                LeaderLatch latch = new LeaderLatch(steps.client(), path, "waiter");
                latch.addListener(LeaderLatchListener.of(token -> heard.add("isLeader " + latch.hasLeadership()),
                    () -> heard.add("notLeader")));
                latch.start();
                waiter = latch;
            } else {
                CompletableFuture<Void> leading = new CompletableFuture<>();
                LeaderSelector first = new LeaderSelector(other, path, "first", c -> {
                    leading.complete(null);
                    holderDone.join();
                });
                first.start();
                leading.join();
                holder = () -> holderDone.complete(null);
                LeaderSelector[] self = new LeaderSelector[1];
                self[0] = new LeaderSelector(steps.client(), path, "waiter", c -> {
                    heard.add("takeLeadership " + self[0].hasLeadership());
                    new CompletableFuture<Void>().get(); // lead until interrupted (a loss, or close)
                });
                self[0].start();
                waiter = self[0];
            }
            String firstNode = path + "/" + children(other, path).get(0);
            await("the waiter watches the leader's node").atMost(WAIT)
                .until(() -> children(other, path).size() == 2 && steps.answered(firstNode));

            // the engine lists the line once the leader's node is gone, and grants on that listing's reply
            steps.closeAtNextListing(path);
            holder.close();
            await("the listing that grants is answered; the step that grants is held back").atMost(WAIT)
                .until(() -> steps.held() > 0);
            proxy.cut();
            await("the waiter's connection is suspended").atMost(WAIT).until(() -> real.connectionState() == ConnectionState.SUSPENDED);
            steps.open(); // the step that grants runs now, on a suspended connection
            proxy.heal();

            await("the waiter is told it leads").atMost(WAIT).until(() -> !heard.isEmpty());
            String told = kind == Kind.LATCH ? "isLeader true" : "takeLeadership true";
            assertThat(heard).as("told it leads only while it does, and never of a lost term").containsExactly(told);
            waiter.close();
        } finally {
            holderDone.complete(null);
        }
    }

    private static List<String> children(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return List.of();
        }
    }
}

package dev.baton.recipes.election.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.election.ElectionObserver;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.election.LeaderSelector;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Runs the examples of docs/election.md. */
@EnsembleTest
class ElectionExampleTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void billingFailsOverRouterFollowsAndAStaleLeaderIsRefused(BatonClient a, BatonClient b, BatonClient router)
        throws Exception {
        ElectionExample.FencedLedger ledger = new ElectionExample.FencedLedger();
        AtomicReference<String> route = new AtomicReference<>();
        try (ElectionObserver observer = ElectionExample.followBilling(router, route);
             LeaderLatch second = ElectionExample.startBilling(b, "10.0.0.2:8080", ledger)) {
            LeaderLatch first = ElectionExample.startBilling(a, "10.0.0.1:8080", ledger);
            await().atMost(WAIT).until(() -> second.hasLeadership() || first.hasLeadership());
            LeaderLatch leader = first.hasLeadership() ? first : second;
            LeaderLatch follower = leader == first ? second : first;
            await().atMost(WAIT).until(() -> leader.participantId().equals(route.get()));
            long oldTerm = leader.leadershipToken();

            leader.close();

            assertThat(follower.await(WAIT)).isTrue();
            await().atMost(WAIT).until(() -> follower.participantId().equals(route.get()));
            assertThat(ledger.append(oldTerm, "late write from the old leader")).as("fenced").isFalse();
            assertThat(ledger.entries()).containsExactly(leader.participantId() + " leads", follower.participantId() + " leads");
            first.close();
        }
    }

    @Test
    void oneCompactorAtATimeAndTheNextTakesOverWhenItCloses(BatonClient a, BatonClient b) throws Exception {
        ElectionExample.FencedLedger ledger = new ElectionExample.FencedLedger();
        BlockingQueue<String> work = new LinkedBlockingQueue<>();
        try (LeaderSelector one = ElectionExample.startCompactor(a, "one", work, ledger);
             LeaderSelector two = ElectionExample.startCompactor(b, "two", work, ledger)) {
            await().atMost(WAIT).until(() -> one.hasLeadership() || two.hasLeadership());
            LeaderSelector leader = one.hasLeadership() ? one : two;
            LeaderSelector other = leader == one ? two : one;
            work.add("segment-1");
            await().atMost(WAIT).until(() -> ledger.entries().size() == 1);

            leader.close();
            await().atMost(WAIT).until(other::hasLeadership);
            work.add("segment-2");
            await().atMost(WAIT).until(() -> ledger.entries().size() == 2);
            assertThat(ledger.entries()).containsExactly(
                leader.participantId() + " compacted segment-1", other.participantId() + " compacted segment-2");
        }
    }
}

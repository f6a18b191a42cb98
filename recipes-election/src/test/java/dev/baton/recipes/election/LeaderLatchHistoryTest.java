package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.history.LeadershipChecker;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Many rounds of hand-overs with several clients, judged by the leadership history: at most one
 * leader at any instant, terms that only grow.
 */
@EnsembleTest
class LeaderLatchHistoryTest {
    private static final Duration SESSION = Duration.ofSeconds(3);

    EmbeddedEnsemble ensemble;

    @Test
    void gracefulHandOversNeverOverlap() {
        try (Fleet fleet = new Fleet(ensemble, "graceful")) {
            for (int i = 0; i < 4; i++) {
                fleet.add("p" + i, LeadershipPolicy.CONNECTION, SESSION).start();
            }
            for (int round = 0; round < 16; round++) {
                fleet.awaitOneLeader().restart();
            }
            fleet.awaitOneLeader();

            LeadershipChecker.Verdict verdict = fleet.history.check().assertNeverTwoLeaders();
            assertThat(verdict.terms()).isGreaterThanOrEqualTo(17);
        }
    }

    @Test
    void leadersRemovedFromOutsideNeverLeaveTwoLeadersAndTheLineHeals(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "outside")) {
            for (int i = 0; i < 4; i++) {
                fleet.add("p" + i, LeadershipPolicy.CONNECTION, SESSION).start();
            }
            fleet.awaitAllInLine(operator);
            for (int round = 0; round < 12; round++) {
                Fleet.Member leader = fleet.awaitOneLeader();
                long token = leader.latch.leadershipToken();
                switch (round % 4) {
                    case 0 -> {
                        fleet.history.revoked(token, "operator deleted the leader's node");
                        operator.delete().quietly().forPath(fleet.nodeOf(operator, token));
                    }
                    case 1 -> {
                        fleet.history.revoked(token, "the servers expired the leader's session");
                        SessionKiller.expire(leader.client, ensemble.connectString(), Duration.ofSeconds(10));
                    }
                    case 2 -> LineOrder.deleteFolderAtomically(operator, fleet.path, fleet.history);
                    default -> {
                        // the leader and the next in line go in one transaction: the next one's watch on
                        // the leader fires while its own node is already gone
                        List<String> line = LineOrder.of(operator, fleet.path);
                        fleet.history.revoked(token, "operator deleted the leader's node");
                        fleet.history.revoked(LineOrder.czxid(operator, fleet.path + "/" + line.get(1)),
                            "operator deleted the next node");
                        operator.transaction().delete(fleet.path + "/" + line.get(0)).delete(fleet.path + "/" + line.get(1)).commit();
                    }
                }
                fleet.awaitTermEnded(token);
                fleet.awaitOneLeader();
                fleet.awaitAllInLine(operator);
            }
            fleet.awaitOneLeader();

            LeadershipChecker.Verdict verdict = fleet.history.check().assertAtMostOneLeader();
            assertThat(verdict.terms()).isGreaterThanOrEqualTo(13);
            assertThat(verdict.stillLeading()).hasSize(1);
        }
    }
}

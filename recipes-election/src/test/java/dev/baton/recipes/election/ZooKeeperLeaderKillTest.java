package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.history.LeadershipChecker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The ZooKeeper leader server dies under a running election (three servers): clients are
 * dropped while the servers elect a new leader, then reconnect with their sessions. The election
 * must come out of it with one leader and no overlap, under CONNECTION and under LEASE.
 */
@EnsembleTest(nodes = 3)
class ZooKeeperLeaderKillTest {
    /**
     * Long, so that a LEASE leader's lease outlasts the servers' leader election: disconnected
     * without a recent request, a lease runs about a third of the session timeout.
     */
    private static final Duration SESSION = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    @Test
    void killingTheZooKeeperLeaderNeverYieldsTwoLeaders(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "zk-leader-kill")) {
            for (int i = 0; i < 4; i++) {
                // joined one at a time, so the line is p0 (CONNECTION), p1 (LEASE), p2, p3
                fleet.add("p" + i, i % 2 == 0 ? LeadershipPolicy.CONNECTION : LeadershipPolicy.LEASE, SESSION).start();
                fleet.awaitAllInLine(operator);
            }
            // round 1: a CONNECTION leader steps down while the servers elect, and leads again in the same term
            Fleet.Member first = fleet.awaitOneLeader();
            assertThat(first.policy).isEqualTo(LeadershipPolicy.CONNECTION);
            long firstTerm = first.latch.leadershipToken();
            killZooKeeperLeader(fleet, operator);
            assertThat(fleet.awaitOneLeader()).isSameAs(first);
            assertThat(first.latch.leadershipToken()).isEqualTo(firstTerm);

            // round 2: a LEASE leader keeps leading through the same disruption
            first.restart();
            Fleet.Member second = fleet.awaitOneLeaderOtherThan(first);
            assertThat(second.policy).isEqualTo(LeadershipPolicy.LEASE);
            long grantsBefore = fleet.history.grants();
            // A lease runs on the confirmed-contact clock (docs/election.md, "How LEASE decides"):
            // for a session younger than a quarter of its timeout the clock can only assume the
            // leader heard of it a quarter plus a third of the timeout before the first confirmed
            // round trip, so a fresh leader's lease is short (p1 stepped down 3 s into the servers'
            // election in a loaded full run, 'no round trip confirmed ... for the session timeout
            // minus PT2S'). The promise is for a leader with the periodic syncs running: wait
            // until its clock is at most half a session timeout old, leaving 8 s of lease.
            await().atMost(SESSION).until(() -> System.nanoTime() - second.client.leaderContactNanos()
                <= SESSION.toNanos() / 2);
            killZooKeeperLeader(fleet, operator);
            assertThat(fleet.awaitOneLeader()).isSameAs(second);
            assertThat(fleet.history.grants()).as("no new term under LEASE").isEqualTo(grantsBefore);
            fleet.awaitOneLeader();
            fleet.awaitAllInLine(operator);

            LeadershipChecker.Verdict verdict = fleet.history.check().assertNeverTwoLeaders();
            assertThat(verdict.stillLeading()).hasSize(1);
        }
    }

    private void killZooKeeperLeader(Fleet fleet, BatonClient operator) {
        fleet.awaitAllInLine(operator);
        int zkLeader = ensemble.leaderId();
        ensemble.stop(zkLeader);
        await().atMost(Fleet.WAIT).until(() -> ensemble.currentLeaderId().isPresent());
        await().atMost(Fleet.WAIT).until(() -> fleet.members().stream().allMatch(m -> m.client.connectionState().isConnected()));
        ensemble.restart(zkLeader);
    }
}

package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * The classes of double-leader and stuck-latch bugs Curator's LeaderLatch shipped, each forced
 * on purpose. Every test ends with the history check: at most one leader at any instant.
 */
@EnsembleTest
class LeaderLatchRegressionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    /**
     * The leader's client gives up on its session (cut off past the session timeout) while the
     * servers keep that session — and the leader's node, first in line, with the leader's own id —
     * alive. Back on a new session, the latch must not take that node for its current one: it
     * must not lead on it, and it gives it back so the line moves on.
     */
    @Test
    void leaderThatMovedToANewSessionNeverLeadsOnItsOldNodeAndGivesItBack(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "earlier-session")) {
            Fleet.Member moving = fleet.addBehindProxy("moving", LeadershipPolicy.CONNECTION, Duration.ofSeconds(2), 1);
            Fleet.Member other = fleet.add("other", LeadershipPolicy.CONNECTION, Duration.ofSeconds(10));
            fleet.startLeaderThenFollower(operator, moving, other);
            long oldSession = moving.client.sessionId();
            String oldNode = fleet.nodeOf(operator, moving.latch.leadershipToken());

            moving.proxy.cut();
            // something keeps the old session alive on the servers (as a slow expiry would)
            ZooKeeper keeper = new ZooKeeper(ensemble.connectString(), 2_000, event -> { }, oldSession,
                moving.client.zookeeper().getSessionPasswd());
            try {
                await().atMost(WAIT).until(() -> moving.client.connectionState() == ConnectionState.LOST);
                moving.proxy.heal();
                assertThat(fleet.awaitOneLeaderOtherThan(moving)).isSameAs(other);
                assertThat(operator.checkExists().forPath(oldNode)).as("the latch gave its old node back").isNull();
                assertThat(keeper.getState().isAlive()).as("while the old session still lives").isTrue();
            } finally {
                keeper.close();
            }
            fleet.awaitAllInLine(operator);
            assertThat(fleet.history.grants()).as("moving led once, never again on its old node").isEqualTo(2);
            fleet.history.check().assertNeverTwoLeaders();
        }
    }

    /** A node first in line that publishes the latch's own id, but is not the latch's node, never grants it leadership. */
    @Test
    void nodePublishingMyIdButNotMineIsNeverTakenForMine(BatonClient me, BatonClient operator) throws Exception {
        String path = "/regression/impostor";
        String impostor = operator.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).withProtection()
            .creatingParentContainersIfNeeded().forPath(path + "/latch-", "me".getBytes(StandardCharsets.UTF_8));
        try (LeaderLatch latch = new LeaderLatch(me, path, "me")) {
            latch.start();
            await().atMost(WAIT).until(() -> LineOrder.of(operator, path).size() == 2);
            assertThat(latch.getLeader()).isEqualTo(new Participant("me", true));
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !latch.hasLeadership());

            operator.delete().forPath(impostor);

            assertThat(latch.await(WAIT)).isTrue();
            String mine = LineOrder.of(operator, path).get(0);
            assertThat(latch.leadershipToken()).isEqualTo(LineOrder.czxid(operator, path + "/" + mine));
        }
    }

    /**
     * The next in line is woken by its predecessor's deletion while its own node is already
     * gone (both deleted in one transaction). It must join again, not lead on a deleted node —
     * and the latch that lost its node must not end up with two.
     */
    @Test
    void wakingUpWithoutAnOwnNodeRejoinsInsteadOfLeading(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "reset-race")) {
            for (String id : List.of("a", "b", "c")) {
                fleet.add(id, LeadershipPolicy.CONNECTION, Duration.ofSeconds(10)).start();
                fleet.awaitAllInLine(operator);
            }
            for (int round = 0; round < 5; round++) {
                Fleet.Member leader = fleet.awaitOneLeader();
                fleet.awaitAllInLine(operator);
                List<String> line = LineOrder.of(operator, fleet.path);
                long token = leader.latch.leadershipToken();
                assertThat(token).as("the leader found still leads").isNotEqualTo(LeaderLatch.NO_TOKEN);
                fleet.history.revoked(token, "deleted with the next node");
                fleet.history.revoked(LineOrder.czxid(operator, fleet.path + "/" + line.get(1)), "deleted with the leader");
                operator.transaction().delete(fleet.path + "/" + line.get(0)).delete(fleet.path + "/" + line.get(1)).commit();
                fleet.awaitTermEnded(token);
            }
            fleet.awaitOneLeader();
            fleet.awaitAllInLine(operator);
            List<Participant> participants = List.copyOf(fleet.members().get(0).latch.getParticipants());
            assertThat(participants).extracting(Participant::id).as("one node per latch").containsExactlyInAnyOrder("a", "b", "c");
            fleet.history.check().assertAtMostOneLeader();
        }
    }

    /**
     * A waiting latch is cut off while the line empties and the server reaps the election's
     * container folder. Back online, it must recreate the folder and lead — not fail or wait
     * forever on a folder that no longer exists.
     */
    @Test
    void waitingLatchRecoversWhenItsContainerFolderIsReaped(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "reaped")) {
            Fleet.Member first = fleet.add("first", LeadershipPolicy.CONNECTION, Duration.ofSeconds(10));
            Fleet.Member waiting = fleet.addBehindProxy("waiting", LeadershipPolicy.CONNECTION, Duration.ofSeconds(10), 1);
            first.start();
            fleet.awaitOneLeader();
            waiting.start();
            fleet.awaitAllInLine(operator);
            String waitingNode = LineOrder.of(operator, fleet.path).get(1);

            waiting.proxy.cut();
            fleet.history.revoked(LineOrder.czxid(operator, fleet.path + "/" + waitingNode), "operator deleted it");
            operator.delete().forPath(fleet.path + "/" + waitingNode);
            first.latch.close();
            await().atMost(WAIT).until(() -> operator.checkExists().forPath(fleet.path) == null);
            waiting.proxy.heal();

            assertThat(fleet.awaitOneLeader()).isSameAs(waiting);
            assertThat(LineOrder.of(operator, fleet.path)).hasSize(1);
            fleet.history.check().assertNeverTwoLeaders();
        }
    }

    /** The election folder is deleted (all at once) under a leader and two waiters: one leader again, one node each. */
    @Test
    void latchesRecoverWhenTheElectionFolderIsDeleted(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "folder-deleted")) {
            for (String id : List.of("a", "b", "c")) {
                fleet.add(id, LeadershipPolicy.CONNECTION, Duration.ofSeconds(10)).start();
            }
            for (int round = 0; round < 3; round++) {
                long token = fleet.awaitOneLeader().latch.leadershipToken();
                fleet.awaitAllInLine(operator);
                LineOrder.deleteFolderAtomically(operator, fleet.path, fleet.history);
                fleet.awaitTermEnded(token);
            }
            fleet.awaitOneLeader();
            fleet.awaitAllInLine(operator);
            assertThat(LineOrder.of(operator, fleet.path)).hasSize(3);
            fleet.history.check().assertAtMostOneLeader();
        }
    }
}

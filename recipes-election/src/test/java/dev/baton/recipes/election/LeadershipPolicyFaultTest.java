package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.ReadOnlyServer;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import dev.baton.test.history.LeadershipChecker;
import dev.baton.test.history.LeadershipHistory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The leader's connection is cut (or silently paused) by a proxy, under each leadership policy.
 * Partitioned leaders use a 2 s session so that the servers expire them quickly.
 */
@EnsembleTest
class LeadershipPolicyFaultTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration SHORT_SESSION = Duration.ofSeconds(2);

    EmbeddedEnsemble ensemble;

    @Test
    void connectionPolicyStepsDownOnDisconnectAndLeadsAgainInTheSameTerm(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "connection-blip")) {
            Fleet.Member leader = fleet.addBehindProxy("leader", LeadershipPolicy.CONNECTION, Duration.ofSeconds(10), 1);
            Fleet.Member other = fleet.add("other", LeadershipPolicy.CONNECTION, Duration.ofSeconds(10));
            fleet.startLeaderThenFollower(operator, leader, other);
            long token = leader.latch.leadershipToken();

            leader.proxy.cut();
            await().atMost(WAIT).until(() -> !fleet.history.leaders().containsKey("leader"));
            assertThat(leader.leads()).isFalse();
            assertThat(other.leads()).isFalse();
            leader.proxy.heal();

            assertThat(fleet.awaitOneLeader()).isSameAs(leader);
            assertThat(leader.latch.leadershipToken()).as("same node, same term").isEqualTo(token);
            fleet.history.check().assertNeverTwoLeaders();
        }
    }

    @Test
    void connectionPolicyPartitionedLeaderIsGoneBeforeTheNextIsElected(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "connection-partition")) {
            partitionEachLeaderInTurn(fleet, operator, LeadershipPolicy.CONNECTION, 2);
            fleet.history.check().assertNeverTwoLeaders();
        }
    }

    @Test
    void sessionPolicyKeepsLeadershipThroughADisconnect(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "session-blip")) {
            Fleet.Member leader = fleet.addBehindProxy("leader", LeadershipPolicy.SESSION, Duration.ofSeconds(10), 1);
            Fleet.Member other = fleet.add("other", LeadershipPolicy.SESSION, Duration.ofSeconds(10));
            fleet.startLeaderThenFollower(operator, leader, other);

            leadsThroughABriefDisconnect(fleet, leader, "still leading while suspended");
        }
    }

    /**
     * Under SESSION a partitioned leader hears that its session is gone only when its client
     * gives up on it, which can be after the servers expired it and elected the next leader: the
     * documented price of SESSION. What still holds: the new term's token is larger, so fenced
     * resources reject the old leader, and the old leader does step down.
     */
    @Test
    void sessionPolicyPartitionedLeaderIsFencedByItsTokenAndStepsDownAtSessionLoss(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "session-partition")) {
            Fleet.Member leader = fleet.addBehindProxy("leader", LeadershipPolicy.SESSION, SHORT_SESSION, 1);
            Fleet.Member other = fleet.add("other", LeadershipPolicy.SESSION, Duration.ofSeconds(10));
            fleet.startLeaderThenFollower(operator, leader, other);
            long oldToken = leader.latch.leadershipToken();

            leader.proxy.cut();
            await().atMost(WAIT).until(other::leads);
            await().atMost(WAIT).until(() -> !fleet.history.leaders().containsKey("leader"));
            leader.proxy.heal();

            assertThat(fleet.awaitOneLeader()).isSameAs(other);
            assertThat(other.latch.leadershipToken()).isGreaterThan(oldToken);
            LeadershipChecker.Verdict verdict = fleet.history.check();
            assertThat(verdict.violations()).as("only an overlap, never a stale or reused term")
                .allSatisfy(v -> assertThat(v).contains("two leaders"));
        }
    }

    @Test
    void leasePolicyKeepsLeadershipThroughAShortDisconnect(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "lease-blip")) {
            // disconnected without a recent request, the lease runs about a third of the session
            // timeout minus the margin: 20 s leaves ample time for the client to reconnect
            Fleet.Member leader = fleet.addBehindProxy("leader", LeadershipPolicy.LEASE, Duration.ofSeconds(20), 1);
            Fleet.Member other = fleet.add("other", LeadershipPolicy.LEASE, Duration.ofSeconds(10));
            fleet.startLeaderThenFollower(operator, leader, other);

            leadsThroughABriefDisconnect(fleet, leader, "within the lease while briefly disconnected");
        }
    }

    /**
     * The proof LEASE exists for: a leader cut off (by a dropped connection, or by silence) keeps
     * leading only until shortly before the servers could expire its session, so it has stepped
     * down — its notLeader() ran, hasLeadership() is false — before anybody else is elected.
     */
    @Test
    void leasePolicyPartitionedLeaderStepsDownBeforeAnyoneElseIsElected(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "lease-partition")) {
            List<String> leadingAtHandOver = partitionEachLeaderInTurn(fleet, operator, LeadershipPolicy.LEASE, 3);
            assertThat(leadingAtHandOver).as("partitioned leaders still claiming leadership when the next was elected").isEmpty();
            LeadershipChecker.Verdict verdict = fleet.history.check().assertNeverTwoLeaders();
            assertThat(verdict.terms()).isGreaterThanOrEqualTo(4);
        }
    }

    /**
     * The servers end a connected LEASE leader's session by force (another handle attaches to the
     * session and closes it, as an operator's tool or the chaos suite's EXPIRE_SESSION does). They
     * drop the leader's connection in the same step as they delete its node, and the node's
     * deletion event usually goes down with the connection: what reaches the leader is a plain
     * disconnect, which LEASE rides through by design. It hears that its session is gone when its
     * client reconnects (ZooKeeper waits up to 1 s before it tries) or at its lease deadline,
     * whichever comes first. What it still promises: it steps down, before the moment the servers
     * could have expired the session on their own (last confirmed contact + session timeout), and
     * the next leader's token is larger. The overlap in between is documented (docs/election.md,
     * "A session ended by force").
     */
    @Test
    void leasePolicyLeaderWhoseSessionIsEndedByForceStepsDownBeforeTheServersCouldHaveExpiredIt(BatonClient operator)
        throws Exception {
        Duration session = Duration.ofSeconds(10);
        try (Fleet fleet = new Fleet(ensemble, "lease-forced-end")) {
            Fleet.Member leader = fleet.add("leader", LeadershipPolicy.LEASE, session);
            Fleet.Member next = fleet.add("next", LeadershipPolicy.LEASE, session);
            fleet.startLeaderThenFollower(operator, leader, next);
            long oldToken = leader.latch.leadershipToken();
            long sessionId = leader.client.sessionId();

            SessionKiller.expire(leader.client, ensemble.connectString(), WAIT);
            // once the client has seen its connection drop, no answer to the ended session can move
            // its clock on: read here, it is what the servers' own expiry would have run from (read
            // before the client moves to a new session, whose clock it is not)
            await().atMost(WAIT).pollInterval(Duration.ofMillis(5))
                .until(() -> !leader.client.connectionState().isConnected());
            long couldHaveExpired = leader.client.leaderContactNanos() + leader.client.negotiatedSessionTimeout().toNanos();
            assertThat(leader.client.sessionId()).as("still on the ended session when its clock was read").isEqualTo(sessionId);

            await().atMost(WAIT).until(next::leads);
            assertThat(next.latch.leadershipToken()).isGreaterThan(oldToken);
            await().atMost(WAIT).until(() -> !fleet.history.leaders().containsKey("leader"));
            long steppedDown = fleet.history.events().stream()
                .filter(e -> e instanceof LeadershipHistory.Ended ended && ended.participant().equals("leader"))
                .mapToLong(LeadershipHistory.Event::nanos).findFirst().orElseThrow();
            assertThat(steppedDown - couldHaveExpired)
                .as("notLeader() ran %d ms before the servers could have expired the session on their own (negative: after)",
                    (couldHaveExpired - steppedDown) / 1_000_000)
                .isNegative();
            assertThat(leader.leads()).isFalse();
            fleet.awaitAllInLine(operator);
        }
    }

    /**
     * A leader whose session comes back on a server cut off from its quorum (READ_ONLY) cannot
     * know whether the quorum still keeps its session, so READ_ONLY counts as SUSPENDED: under
     * CONNECTION it steps down at once, under LEASE at the lease deadline, under SESSION when the
     * client gives the session up. None of them keeps leading on a read-only server.
     */
    @Test
    void aLeaderBackOnAReadOnlyServerStepsDownUnderEveryPolicy() throws Exception {
        try (BatonClient client = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
                 .sessionTimeout(Duration.ofSeconds(3)).canBeReadOnly(true))) {
            Map<LeadershipPolicy, LeaderLatch> latches = new TreeMap<>();
            List<LeadershipPolicy> steppedDown = new CopyOnWriteArrayList<>();
            for (LeadershipPolicy policy : LeadershipPolicy.values()) {
                LeaderLatch latch = LeaderLatch.builder(client, "/read-only/" + policy, "p-" + policy).policy(policy).build();
                latch.addListener(LeaderLatchListener.of(token -> { }, () -> steppedDown.add(policy)));
                latch.start();
                latches.put(policy, latch);
            }
            for (LeaderLatch latch : latches.values()) {
                assertThat(latch.await(WAIT)).isTrue();
            }

            ReadOnlyServer.loseQuorum(client, WAIT);
            assertThat(latches.get(LeadershipPolicy.CONNECTION).hasLeadership()).as("CONNECTION, at once").isFalse();

            await().atMost(WAIT).untilAsserted(() ->
                assertThat(steppedDown).as("notLeader() heard").containsExactlyInAnyOrder(LeadershipPolicy.values()));
            latches.values().forEach(LeaderLatch::close);
        }
    }

    /**
     * Cuts the leader's proxy until its client is SUSPENDED and heals it: the leader leads all
     * along ({@code why}), is the one leader after it reconnects, and in the term it had.
     */
    private static void leadsThroughABriefDisconnect(Fleet fleet, Fleet.Member leader, String why) {
        leader.proxy.cut();
        await().atMost(WAIT).until(() -> leader.client.connectionState() == ConnectionState.SUSPENDED);
        assertThat(leader.leads()).as(why).isTrue();
        leader.proxy.heal();
        await().atMost(WAIT).until(() -> leader.client.connectionState() == ConnectionState.RECONNECTED);

        assertThat(fleet.awaitOneLeader()).isSameAs(leader);
        assertThat(fleet.history.grants()).as("one term, never interrupted").isEqualTo(1);
        fleet.history.check().assertNeverTwoLeaders();
    }

    /**
     * Three participants, each behind its own proxy with a short session. In each round the
     * leader is partitioned (cut in even rounds, silently paused in odd ones) until another
     * participant is elected; then it comes back and rejoins. Returns the partitioned leaders
     * whose hasLeadership() was still true when the next leader's isLeader() ran.
     */
    private List<String> partitionEachLeaderInTurn(Fleet fleet, BatonClient operator, LeadershipPolicy policy, int rounds)
        throws Exception {
        List<String> stillLeading = new CopyOnWriteArrayList<>();
        List<Fleet.Member> members = List.of(
            fleet.addBehindProxy("a", policy, SHORT_SESSION, 1),
            fleet.addBehindProxy("b", policy, SHORT_SESSION, 1),
            fleet.addBehindProxy("c", policy, SHORT_SESSION, 1));
        for (Fleet.Member member : members) {
            member.start().addListener(LeaderLatchListener.of(token -> members.stream()
                .filter(m -> m != member && m.leads()).forEach(m -> stillLeading.add(m.id)), () -> { }));
        }
        for (int round = 0; round < rounds; round++) {
            Fleet.Member leader = fleet.awaitOneLeader();
            fleet.awaitAllInLine(operator);
            if (round % 2 == 0) {
                leader.proxy.cut();
            } else {
                leader.proxy.pause();
            }
            fleet.awaitOneLeaderOtherThan(leader);
            leader.proxy.heal();
            fleet.awaitAllInLine(operator);
        }
        return stillLeading;
    }
}

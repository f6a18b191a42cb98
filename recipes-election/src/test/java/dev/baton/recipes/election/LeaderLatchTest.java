package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.InvalidPathException;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

@EnsembleTest
class LeaderLatchTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void oneOfSeveralLatchesLeadsAndParticipantsAreListedInJoinOrder(BatonClient a, BatonClient b, BatonClient c)
        throws Exception {
        String path = "/latch/order";
        try (LeaderLatch first = new LeaderLatch(a, path, "first");
             LeaderLatch second = new LeaderLatch(b, path, "second");
             LeaderLatch third = new LeaderLatch(c, path, "third")) {
            first.start();
            first.await();
            second.start();
            await().atMost(WAIT).until(() -> first.getParticipants().size() == 2);
            third.start();
            await().atMost(WAIT).until(() -> first.getParticipants().size() == 3);

            assertThat(third.getParticipants()).containsExactly(
                new Participant("first", true), new Participant("second", false), new Participant("third", false));
            assertThat(second.getLeader()).isEqualTo(new Participant("first", true));
            assertThat(first.hasLeadership()).isTrue();
            assertThat(second.hasLeadership()).isFalse();
            assertThat(third.hasLeadership()).isFalse();
            assertThat(second.state()).isEqualTo(LeaderLatch.State.WAITING);
        }
    }

    @Test
    void awaitWaitsForLeadershipAndTimesOutWithoutIt(BatonClient a, BatonClient b) throws Exception {
        String path = "/latch/await";
        try (LeaderLatch first = new LeaderLatch(a, path, "a"); LeaderLatch second = new LeaderLatch(b, path, "b")) {
            first.start();
            assertThat(first.await(WAIT)).isTrue();
            second.start();
            assertThat(second.await(Duration.ofMillis(200))).as("the second latch does not lead while the first does").isFalse();
            first.close();
            second.await();
            assertThat(second.hasLeadership()).isTrue();
        }
    }

    @Test
    void everyNewLeaderHasALargerTokenThatIsItsNodesCzxid(BatonClient a, BatonClient b, BatonClient c) throws Exception {
        String path = "/latch/tokens";
        List<Long> tokens = new CopyOnWriteArrayList<>();
        List<LeaderLatch> latches = new CopyOnWriteArrayList<>();
        for (BatonClient client : List.of(a, b, c)) {
            LeaderLatch latch = new LeaderLatch(client, path, "p" + latches.size());
            latch.addListener(LeaderLatchListener.of(tokens::add, () -> { }));
            latch.start();
            latches.add(latch);
        }
        for (int round = 0; round < 3; round++) {
            LeaderLatch leader = await().atMost(WAIT).until(() -> latches.stream().filter(LeaderLatch::hasLeadership).findFirst(),
                java.util.Optional::isPresent).get();
            long token = leader.leadershipToken();
            String node = nodeWithToken(a, path, token);
            assertThat(node).as("the token is the czxid of the leader's own node").contains("-latch-");
            leader.close();
            latches.remove(leader);
            assertThat(leader.leadershipToken()).isEqualTo(LeaderLatch.NO_TOKEN);
        }
        assertThat(tokens).hasSize(3).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void closingTheLeaderCallsNotLeaderBeforeItsNodeIsDeleted(BatonClient a, BatonClient b, BatonClient observer)
        throws Exception {
        String path = "/latch/close-order";
        AtomicReference<Integer> nodesSeenInNotLeader = new AtomicReference<>();
        try (LeaderLatch second = new LeaderLatch(b, path, "b")) {
            LeaderLatch first = new LeaderLatch(a, path, "a");
            first.addListener(LeaderLatchListener.of(token -> { }, () -> {
                try {
                    nodesSeenInNotLeader.set(observer.getChildren().forPath(path).size());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            first.start();
            first.await();
            second.start();
            await().atMost(WAIT).until(() -> observer.getChildren().forPath(path).size() == 2);

            first.close();

            assertThat(nodesSeenInNotLeader.get()).as("both nodes were still there while notLeader() ran").isEqualTo(2);
            assertThat(second.await(WAIT)).isTrue();
        }
    }

    @Test
    void silentCloseDoesNotCallNotLeader(BatonClient a) throws Exception {
        AtomicInteger notLeader = new AtomicInteger();
        LeaderLatch latch = new LeaderLatch(a, "/latch/silent", "a");
        latch.addListener(LeaderLatchListener.of(token -> { }, notLeader::incrementAndGet));
        latch.start();
        latch.await();
        latch.close(LeaderLatch.CloseMode.SILENT);
        List<String> left;
        try {
            left = a.getChildren().forPath("/latch/silent");
        } catch (dev.baton.framework.NoNodeException reaped) {
            left = List.of(); // the folder is a container: the servers may reap it once empty
        }
        assertThat(left).as("the closed latch left no node").isEmpty();
        assertThat(notLeader).hasValue(0);
    }

    @Test
    void listenerAddedWhileLeadingHearsIsLeaderWithTheToken(BatonClient a) throws Exception {
        try (LeaderLatch latch = new LeaderLatch(a, "/latch/late-listener", "a")) {
            latch.start();
            latch.await();
            AtomicReference<Long> heard = new AtomicReference<>();
            latch.addListener(LeaderLatchListener.of(heard::set, () -> { }));
            await().atMost(WAIT).until(() -> heard.get() != null);
            assertThat(heard.get()).isEqualTo(latch.leadershipToken());
        }
    }

    @Test
    void listenerThatThrowsDoesNotStopTheOthers(BatonClient a) throws Exception {
        AtomicInteger heard = new AtomicInteger();
        try (LeaderLatch latch = new LeaderLatch(a, "/latch/throwing", "a")) {
            latch.addListener(LeaderLatchListener.of(token -> {
                throw new IllegalStateException("listener bug (expected in this test)");
            }, () -> { }));
            latch.addListener(LeaderLatchListener.of(token -> heard.incrementAndGet(), () -> { }));
            latch.start();
            await().atMost(WAIT).until(() -> heard.get() == 1);
            assertThat(latch.hasLeadership()).isTrue();
        }
    }

    @Test
    void proclaimPublishesANewIdWithoutANewElection(BatonClient a, BatonClient b) throws Exception {
        String path = "/latch/proclaim";
        try (LeaderLatch leader = new LeaderLatch(a, path, "10.0.0.1:8080"); LeaderLatch follower = new LeaderLatch(b, path, "10.0.0.2:8080")) {
            leader.start();
            leader.await();
            follower.start();
            long token = leader.leadershipToken();

            leader.proclaim("10.0.0.1:9090");

            assertThat(follower.getLeader()).isEqualTo(new Participant("10.0.0.1:9090", true));
            assertThat(leader.leadershipToken()).as("same term").isEqualTo(token);
            assertThatThrownBy(() -> follower.proclaim("me")).isInstanceOf(NotLeaderException.class)
                .hasMessageContaining("does not lead");
        }
    }

    @Test
    void leaderWhoseNodeAnOperatorDeletesStepsDownAndRejoins(BatonClient a, BatonClient b, BatonClient operator)
        throws Exception {
        String path = "/latch/operator";
        List<String> events = new CopyOnWriteArrayList<>();
        try (LeaderLatch first = new LeaderLatch(a, path, "a"); LeaderLatch second = new LeaderLatch(b, path, "b")) {
            first.addListener(LeaderLatchListener.of(token -> events.add("a leads"), () -> events.add("a steps down")));
            first.start();
            first.await();
            second.start();
            await().atMost(WAIT).until(() -> operator.getChildren().forPath(path).size() == 2);
            operator.delete().forPath(nodeWithToken(operator, path, first.leadershipToken()));

            assertThat(second.await(WAIT)).isTrue();
            await().atMost(WAIT).until(() -> first.getParticipants().size() == 2);
            assertThat(first.getParticipants()).containsExactly(new Participant("b", true), new Participant("a", false));
            await().atMost(WAIT).until(() -> events.size() == 2);
            assertThat(events).containsExactly("a leads", "a steps down");
            assertThat(first.hasLeadership()).isFalse();
        }
    }

    @Test
    void misuseFailsLoudly(BatonClient a) throws Exception {
        LeaderLatch latch = new LeaderLatch(a, "/latch/misuse", "a");
        assertThatThrownBy(latch::await).isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
        latch.start();
        assertThatThrownBy(latch::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already started");
        assertThatThrownBy(() -> latch.await(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("PT-1S");
        latch.close();
        latch.close(); // a second close is harmless
        assertThatThrownBy(latch::await).isInstanceOf(ElectionClosedException.class);
        assertThatThrownBy(() -> new LeaderLatch(a, "no-slash", "a")).isInstanceOf(InvalidPathException.class)
            .hasMessageContaining("no-slash");
        String huge = "x".repeat(ElectionBuilder.MAX_PARTICIPANT_ID_BYTES + 1);
        assertThatThrownBy(() -> new LeaderLatch(a, "/latch/misuse", huge)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("participantId is 65537 bytes");
        assertThatThrownBy(() -> new LeaderSelector(a, "/selector/misuse", huge, client -> { }))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 65536");
        assertThatThrownBy(() -> LeaderLatch.builder(a, "/latch/misuse", "a").leaseMargin(Duration.ofMillis(100)).build())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("LEASE");
        assertThatThrownBy(() -> LeaderLatch.builder(a, "/latch/misuse", "a").leaseMargin(Duration.ofMillis(-1)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-0.001S");
    }

    /**
     * A latch or selector closed before it ever started (a shutdown hook that ran during start-up,
     * a close in a finally) is not restartable: start() says it is closed and to build a new one,
     * not that it "was already started" (it never was).
     */
    @Test
    void startAfterCloseSaysClosedNotAlreadyStarted(BatonClient a) {
        LeaderLatch latch = new LeaderLatch(a, "/latch/closed-first", "a");
        latch.close();
        assertThatThrownBy(latch::start).isInstanceOf(IllegalStateException.class)
            .hasMessage("latch on /latch/closed-first is closed: a closed latch cannot start again; build a new one");
        LeaderSelector selector = new LeaderSelector(a, "/selector/closed-first", "a", client -> { });
        selector.close();
        assertThatThrownBy(selector::start).isInstanceOf(IllegalStateException.class)
            .hasMessage("selector on /selector/closed-first is closed: a closed selector cannot start again; build a new one");
    }

    /** A listener added to a closed latch would never be called: the call says so instead of accepting it. */
    @Test
    void addingAListenerToAClosedLatchFailsSayingItIsClosed(@ConnectString String connect) throws Exception {
        LeaderLatchListener listener = LeaderLatchListener.of(token -> { }, () -> { });
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderLatch closed = new LeaderLatch(client, "/latch/closed-listener", "a");
        closed.start();
        closed.close();
        assertThatThrownBy(() -> closed.addListener(listener)).isInstanceOf(ElectionClosedException.class)
            .hasMessage("latch on /latch/closed-listener is closed: a listener added now would never be called");

        LeaderLatch closedWithItsClient = new LeaderLatch(client, "/latch/closed-listener", "b");
        closedWithItsClient.start();
        client.close();
        assertThatThrownBy(() -> closedWithItsClient.addListener(listener)).isInstanceOf(ElectionClosedException.class)
            .hasMessageContaining("is closed");
    }

    @Test
    void startingOnAClosedClientFailsAtOnce(@ConnectString String connect) {
        BatonClient closed = TestClients.started(connect, Duration.ofSeconds(10));
        closed.close();
        LeaderLatch latch = new LeaderLatch(closed, "/latch/closed", "a");
        assertThatThrownBy(latch::start).isInstanceOf(ClientClosedException.class).hasMessageContaining("/latch/closed");
        LeaderSelector selector = new LeaderSelector(closed, "/selector/closed", "a", client -> { });
        assertThatThrownBy(selector::start).isInstanceOf(ClientClosedException.class).hasMessageContaining("/selector/closed");
    }

    @Test
    void startingOnAClientThatWasNeverStartedFailsAtOnceAndWorksOnceItIs(@ConnectString String connect) throws Exception {
        // the newcomer's slip: build(), then the recipes, and client.start() forgotten. Until
        // 2026-11-28 start() returned, an ERROR with a stack trace was logged ("could not join
        // the election; trying again after the next reconnection") and await() simply ran out.
        try (BatonClient unstarted = BatonClient.builder().connectString(connect).build();
             LeaderLatch latch = new LeaderLatch(unstarted, "/latch/unstarted", "a");
             LeaderSelector selector = new LeaderSelector(unstarted, "/selector/unstarted", "a", client -> { })) {
            assertThatThrownBy(latch::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the leader latch /latch/unstarted: the client is not started; call start() first");
            assertThatThrownBy(selector::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the leader selector /selector/unstarted: the client is not started; call start() first");
            assertThat(latch.state()).isEqualTo(LeaderLatch.State.LATENT);

            unstarted.start();
            latch.start();
            assertThat(latch.await(Duration.ofSeconds(10))).as("the same latch leads once its client is started").isTrue();
        }
    }

    static String nodeWithToken(BatonClient client, String path, long token) throws InterruptedException {
        for (String child : client.getChildren().forPath(path)) {
            var stat = client.checkExists().forPath(path + "/" + child);
            if (stat != null && stat.getCzxid() == token) {
                return path + "/" + child;
            }
        }
        throw new AssertionError("no node with czxid " + token + " in " + path);
    }

    @Test
    void curatorsNamesAnswerLikeBatonsOwn(BatonClient a) throws Exception {
        try (LeaderLatch latch = new LeaderLatch(a, "/latch/curator-names", "node-1");
             LeaderSelector selector = new LeaderSelector(a, "/selector/curator-names", "node-2", client -> { })) {
            assertThat(latch.getId()).isEqualTo(latch.participantId()).isEqualTo("node-1");
            assertThat(selector.getId()).isEqualTo(selector.participantId()).isEqualTo("node-2");
            latch.start();
            assertThat(latch.await(WAIT)).isTrue();
            Participant leader = latch.getLeader();
            assertThat(leader.getId()).isEqualTo(leader.id()).isEqualTo("node-1");
        }
    }
}

package dev.baton.recipes.barrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ServerCapabilities;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.ClientProcess;
import dev.baton.test.EnsembleTest;
import dev.baton.test.OneShotWatches;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

@EnsembleTest
class DistributedDoubleBarrierTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;
    private final List<BatonClient> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(BatonClient::close);
        clients.clear();
    }

    private BatonClient newClient() {
        BatonClient c = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        clients.add(c);
        return c;
    }

    /** The barrier's children; none when its container folder was reaped after the last member left. */
    private static List<String> children(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (dev.baton.framework.NoNodeException reaped) {
            return List.of();
        }
    }

    private static String path(TestInfo info) {
        return "/double/" + info.getTestMethod().orElseThrow().getName();
    }

    /** Runs enter (or leave) on another thread and reports when it returned. */
    private static CompletableFuture<Long> async(Step step) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                step.run();
                return System.nanoTime();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Two members of a barrier for two, both entered; the lower member name first. */
    private List<DistributedDoubleBarrier> enteredPair(String path) throws Exception {
        DistributedDoubleBarrier a = new DistributedDoubleBarrier(newClient(), path, 2);
        DistributedDoubleBarrier b = new DistributedDoubleBarrier(newClient(), path, 2);
        CompletableFuture<Long> aIn = async(a::enter);
        b.enter();
        aIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        return a.memberName().compareTo(b.memberName()) < 0 ? List.of(a, b) : List.of(b, a);
    }

    @FunctionalInterface
    private interface Step {
        void run() throws InterruptedException;
    }

    @Test
    void nobodyPassesEnterBeforeTheLastMemberArrivesAndLeaveWaitsForAll(TestInfo info) throws Exception {
        fiveMembersTwoRounds(path(info), this::newClient);
    }

    /**
     * The same rounds on clients that read one node per request, as they would from a server
     * without a multi of reads (before 3.6): each look at the round is then three reads answered one
     * by one, which the barrier takes only if {@code ready} is older than the barrier node's read.
     */
    @Test
    void roundsHoldWhenTheServersAnswerTheReadsOneByOne(TestInfo info) throws Exception {
        ServerCapabilities old = ServerCapabilities.ofVersion("3.5.10");
        assertThat(old.supports(ServerCapabilities.Feature.MULTI_READ)).isFalse();
        fiveMembersTwoRounds(path(info), () -> {
            BatonClient c = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
                .sessionTimeout(Duration.ofSeconds(10)).assumeServerCapabilities(old));
            clients.add(c);
            return c;
        });
    }

    private void fiveMembersTwoRounds(String path, Supplier<BatonClient> newClient) throws Exception {
        List<DistributedDoubleBarrier> members = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            members.add(new DistributedDoubleBarrier(newClient.get(), path, 5));
        }
        for (int round = 0; round < 2; round++) {
            List<CompletableFuture<Long>> entered = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                DistributedDoubleBarrier m = members.get(i);
                entered.add(async(m::enter));
            }
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> entered.stream().noneMatch(CompletableFuture::isDone));
            long lastArrival = System.nanoTime();
            entered.add(async(members.get(4)::enter));
            for (CompletableFuture<Long> e : entered) {
                assertThat(e.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("round %d: entered after the last arrival", round)
                    .isGreaterThan(lastArrival);
            }

            List<CompletableFuture<Long>> left = new ArrayList<>();
            for (int i = 1; i < 5; i++) {
                left.add(async(members.get(i)::leave));
            }
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> left.stream().noneMatch(CompletableFuture::isDone));
            long lastLeaver = System.nanoTime();
            left.add(async(members.get(0)::leave));
            for (CompletableFuture<Long> l : left) {
                assertThat(l.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isGreaterThan(lastLeaver);
            }
            assertThat(children(clients.get(0), path)).as("round %d leaves nothing behind", round).isEmpty();
        }
        org.apache.zookeeper.data.Stat barrierNode = clients.get(0).checkExists().forPath(path);
        assertThat(barrierNode.getEphemeralOwner()).as("the barrier node is persistent, not a container the reaper may"
            + " re-create between rounds").isZero();
        assertThat(barrierNode.getVersion()).as("each of the two rounds was closed exactly once").isEqualTo(2);
    }

    @Test
    void aNewcomerIsNotLetThroughByTheReadyNodeOfARoundStillLeaving(TestInfo info) throws Exception {
        String path = path(info);
        List<DistributedDoubleBarrier> pair = enteredPair(path);
        // the higher member leaves first: it removes its node and waits for the lowest, while ready still exists
        DistributedDoubleBarrier low = pair.get(0);
        DistributedDoubleBarrier high = pair.get(1);
        CompletableFuture<Long> highOut = async(high::leave);

        DistributedDoubleBarrier c = new DistributedDoubleBarrier(newClient(), path, 2);
        CompletableFuture<Long> cIn = async(c::enter);
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> !cIn.isDone() && !highOut.isDone());

        // the lowest closes the round; c joins the next one at once, and the first leaver must not
        // mistake c for a member of its own round and wait for it
        low.leave();
        highOut.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !cIn.isDone());
        long dArrives = System.nanoTime();
        DistributedDoubleBarrier d = new DistributedDoubleBarrier(newClient(), path, 2);
        d.enter();
        assertThat(cIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isGreaterThan(dArrives);
    }

    @Test
    void aRoundWhoseMembersAllVanishedIsClosedByTheNextNewcomers(BatonClient observer, TestInfo info) throws Exception {
        String path = path(info);
        BatonClient crashingA = TestClients.started(ensemble.connectString(), Duration.ofSeconds(3));
        BatonClient crashingB = TestClients.started(ensemble.connectString(), Duration.ofSeconds(3));
        DistributedDoubleBarrier a = new DistributedDoubleBarrier(crashingA, path, 2);
        DistributedDoubleBarrier b = new DistributedDoubleBarrier(crashingB, path, 2);
        CompletableFuture<Long> aIn = async(a::enter);
        b.enter();
        aIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        crashingA.close();   // both die inside the barrier: nobody is left to delete ready
        crashingB.close();
        await().atMost(WAIT).until(() -> children(observer, path).equals(List.of("ready")));

        DistributedDoubleBarrier c = new DistributedDoubleBarrier(newClient(), path, 2);
        CompletableFuture<Long> cIn = async(c::enter);
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !cIn.isDone());
        long dArrives = System.nanoTime();
        DistributedDoubleBarrier d = new DistributedDoubleBarrier(newClient(), path, 2);
        assertThat(d.enter(WAIT)).as("the dead round's ready is closed, and a new round forms").isTrue();
        assertThat(cIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isGreaterThan(dArrives);
        CompletableFuture<Long> cOut = async(c::leave);
        d.leave();
        cOut.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(children(observer, path)).isEmpty();
    }

    @Test
    void timeoutsRemoveTheMembersNodeAndReturnFalseInsteadOfLooping(BatonClient observer, TestInfo info) throws Exception {
        String path = path(info);
        DistributedDoubleBarrier lonely = new DistributedDoubleBarrier(newClient(), path, 3);
        assertThat(lonely.enter(Duration.ofMillis(300))).isFalse();
        assertThat(children(observer, path)).isEmpty();

        DistributedDoubleBarrier x = new DistributedDoubleBarrier(newClient(), path, 2);
        DistributedDoubleBarrier y = new DistributedDoubleBarrier(newClient(), path, 2);
        CompletableFuture<Long> xIn = async(x::enter);
        y.enter();
        xIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        // y never leaves: x's leave times out instead of spinning forever
        assertThat(x.leave(Duration.ofMillis(300))).isFalse();
        assertThat(children(observer, path)).doesNotContain(x.memberName());
    }

    @Test
    void aMemberThatCrashesCountsAsGoneWhileEnteringAndWhileLeaving(TestInfo info) throws Exception {
        String path = path(info);
        BatonClient crashing = TestClients.started(ensemble.connectString(), Duration.ofSeconds(3));
        DistributedDoubleBarrier doomed = new DistributedDoubleBarrier(crashing, path, 3);
        DistributedDoubleBarrier a = new DistributedDoubleBarrier(newClient(), path, 3);
        CompletableFuture<Long> doomedIn = async(doomed::enter);
        CompletableFuture<Long> aIn = async(a::enter);
        await().atMost(WAIT).until(() -> children(clients.get(0), path).size() == 2);
        crashing.close();   // mid-enter: its node goes with its session
        await().atMost(WAIT).until(() -> children(clients.get(0), path).size() == 1);
        DistributedDoubleBarrier b = new DistributedDoubleBarrier(newClient(), path, 3);
        CompletableFuture<Long> bIn = async(b::enter);
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !aIn.isDone() && !bIn.isDone());
        BatonClient crashingAgain = TestClients.started(ensemble.connectString(), Duration.ofSeconds(3));
        DistributedDoubleBarrier c = new DistributedDoubleBarrier(crashingAgain, path, 3);
        c.enter();
        aIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        bIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        // its enter() ends as its client closed, saying so; not a wait that never ends (failsWithin alone accepts a timeout)
        assertThat(doomedIn).failsWithin(WAIT).withThrowableOfType(ExecutionException.class)
            .withRootCauseInstanceOf(ClientClosedException.class);

        CompletableFuture<Long> aOut = async(a::leave);
        CompletableFuture<Long> bOut = async(b::leave);
        crashingAgain.close();   // mid-leave: gone counts as left
        aOut.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        bOut.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Test
    void aWaitingMemberWhoseSessionExpiresRejoinsWithItsNewSession(TestInfo info) throws Exception {
        String path = path(info);
        BatonClient expiring = TestClients.started(ensemble.connectString(), Duration.ofSeconds(5));
        clients.add(expiring);
        DistributedDoubleBarrier a = new DistributedDoubleBarrier(expiring, path, 2);
        CompletableFuture<Long> aIn = async(a::enter);
        await().atMost(WAIT).until(() -> children(expiring, path).size() == 1);
        long session = expiring.sessionId();
        dev.baton.test.SessionKiller.expire(expiring, ensemble.connectString(), WAIT);
        await().atMost(WAIT).until(() -> expiring.sessionId() != session && expiring.connectionState().isConnected());
        // back in line with its new session (the container may have been reaped in between)...
        await().atMost(WAIT)
            .until(() -> children(clients.get(0), path).size() == 1);
        assertThat(aIn).isNotDone();
        // ...so the second member completes the barrier with it
        new DistributedDoubleBarrier(newClient(), path, 2).enter();
        aIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * A waiting member whose connection comes back and is lost again at once (a server that takes
     * the session back and then goes away) goes on waiting, as it does through one loss: what it
     * reads when the reconnect wakes it is part of the wait. (When the woken waiter looked at the
     * round outside the wait, a second loss longer than the connection timeout ended its enter()
     * with NoConnectionException.)
     */
    @Test
    void aWaiterWhoseConnectionComesBackAndIsLostAgainAtOnceGoesOnWaiting(TestInfo info) throws Exception {
        String path = path(info);
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1))) {
            BatonClient flapping = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofSeconds(1)));
            clients.add(flapping);
            DistributedDoubleBarrier a = new DistributedDoubleBarrier(flapping, path, 2);
            CompletableFuture<Long> aIn = async(a::enter);
            await().atMost(WAIT).until(() -> OneShotWatches.EXISTS.on(flapping).contains(path + "/ready"));   // in the wait

            proxy.cut();
            await().atMost(WAIT).until(() -> flapping.connectionState() == ConnectionState.SUSPENDED);
            // every chunk held a second: what the member sends once reconnected is still in the proxy when it is cut
            proxy.delay(Duration.ofSeconds(1));
            proxy.heal();
            await().atMost(WAIT).pollInterval(Duration.ofMillis(1))
                .until(() -> flapping.connectionState() == ConnectionState.RECONNECTED);
            proxy.cut();
            await().atMost(WAIT).until(() -> flapping.connectionState() == ConnectionState.SUSPENDED);
            // three connection timeouts without a connection: a request retried over them would have given up
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(aIn).as("enter() of a member whose connection is down again").isNotDone());

            proxy.delay(Duration.ZERO);
            proxy.heal();
            new DistributedDoubleBarrier(newClient(), path, 2).enter();
            aIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Another recipe's node below the barrier's path (here a gate at {@code <path>/gate}; Baton's
     * barrier nodes stay after use, so such a node is there for good) is no member: counting it let
     * a member of a barrier for two pass alone, and its leave wait for the gate to go.
     */
    @Test
    void aNodeBelowTheBarrierThatIsNoMemberIsNotCounted(BatonClient observer, TestInfo info) throws Exception {
        String path = path(info);
        new DistributedBarrier(observer, path + "/gate").setBarrier();
        DistributedDoubleBarrier a = new DistributedDoubleBarrier(newClient(), path, 2);
        assertThat(a.enter(Duration.ofMillis(500))).as("alone in a barrier for two, beside a gate: not through").isFalse();

        DistributedDoubleBarrier b = new DistributedDoubleBarrier(newClient(), path, 2);
        CompletableFuture<Long> aIn = async(a::enter);
        b.enter();
        aIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        CompletableFuture<Long> aOut = async(a::leave);
        assertThat(b.leave(WAIT)).as("the leavers wait for each other, not for the gate").isTrue();
        aOut.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(children(observer, path)).containsExactly("gate");
    }

    /**
     * A member killed by SIGKILL (no close: its session lives on the servers until it times out)
     * still counts until the servers expire its session; then the others' leave goes through.
     */
    @Test
    void aKilledMemberCountsUntilItsSessionExpiresThenTheOthersLeave(BatonClient observer, TestInfo info) throws Exception {
        assumeTrue(ClientProcess.supported(), "a member in a child JVM is killed with SIGKILL, which needs a Unix-like system");
        String path = path(info);
        List<ClientProcess.Message> reports = new CopyOnWriteArrayList<>();
        try (ClientProcess killed = ClientProcess.builder("member", DoubleBarrierMemberMain.class)
                 .args(ensemble.connectString(), path, "3", "3000").onMessage(reports::add).start()) {
            await().atMost(WAIT).until(() -> children(observer, path).size() == 1);
            String killedName = children(observer, path).get(0);
            DistributedDoubleBarrier a = new DistributedDoubleBarrier(newClient(), path, 3);
            DistributedDoubleBarrier b = new DistributedDoubleBarrier(newClient(), path, 3);
            CompletableFuture<Long> aIn = async(a::enter);
            assertThat(b.enter(WAIT)).isTrue();
            aIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            await().atMost(WAIT).until(() -> reports.stream().anyMatch(m -> m.kind().equals("entered")));

            killed.kill();
            assertThat(observer.checkExists().forPath(path + "/" + killedName))
                .as("killed, its session not yet expired: it still counts").isNotNull();
            CompletableFuture<Long> aOut = async(a::leave);
            assertThat(b.leave(WAIT)).as("released once the killed member's session expires").isTrue();
            aOut.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(children(observer, path)).isEmpty();
        }
    }

    @Test
    void threadsEnteringThroughOneMemberGetTheSameAnswer(TestInfo info) throws Exception {
        String path = path(info);
        DistributedDoubleBarrier shared = new DistributedDoubleBarrier(newClient(), path, 2);
        List<CompletableFuture<Boolean>> answers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            answers.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return shared.enter(Duration.ofMillis(400));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (CompletableFuture<Boolean> answer : answers) {
            assertThat(answer.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("alone: nobody gets through").isFalse();
        }
        assertThat(children(clients.get(0), path)).isEmpty();
        assertThatThrownBy(shared::leave).isInstanceOf(IllegalStateException.class).hasMessageContaining("needs a successful enter()");
    }

    @Test
    void aShorterTimeoutGivenByASecondThreadEndsTheMembersWaitForBothThreads(TestInfo info) throws Exception {
        String path = path(info);
        DistributedDoubleBarrier shared = new DistributedDoubleBarrier(newClient(), path, 2);
        CompletableFuture<Long> untimed = async(shared::enter);
        await().atMost(WAIT).until(() -> children(clients.get(0), path).size() == 1);
        long started = System.nanoTime();
        assertThat(shared.enter(Duration.ofMillis(300))).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the 300 ms timeout is kept").isLessThan(Duration.ofSeconds(5));
        assertThat(untimed).failsWithin(WAIT).withThrowableOfType(java.util.concurrent.ExecutionException.class)
            .havingCause().isInstanceOf(BarrierException.class).withMessageContaining("did not enter");
        assertThat(children(clients.get(0), path)).isEmpty();
    }

    @Test
    void enterWhileThisMemberIsLeavingIsRefusedAtOnce(TestInfo info) throws Exception {
        String path = path(info);
        List<DistributedDoubleBarrier> pair = enteredPair(path);
        // the lowest, leaving first, waits in leave() for the other
        DistributedDoubleBarrier first = pair.get(0);
        DistributedDoubleBarrier second = pair.get(1);
        CompletableFuture<Long> firstOut = async(first::leave);
        await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> !firstOut.isDone());
        assertThatThrownBy(() -> first.enter(Duration.ofSeconds(1)))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("while this member is leaving");
        assertThatThrownBy(first::leave).isInstanceOf(IllegalStateException.class).hasMessageContaining("LEAVING");
        second.leave();
        firstOut.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Test
    void curatorAndBatonMembersShareOneBarrier(TestInfo info) throws Exception {
        String path = path(info);
        try (CuratorFramework curator = CuratorFrameworkFactory.newClient(ensemble.connectString(), new RetryOneTime(100))) {
            curator.start();
            curator.blockUntilConnected();
            var curatorMember = new org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier(curator, path, 3);
            List<CompletableFuture<Long>> entered = new ArrayList<>();
            entered.add(async(new DistributedDoubleBarrier(newClient(), path, 3)::enter));
            entered.add(async(new DistributedDoubleBarrier(newClient(), path, 3)::enter));
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> entered.stream().noneMatch(CompletableFuture::isDone));
            long curatorArrives = System.nanoTime();
            assertThat(curatorMember.enter(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            for (CompletableFuture<Long> e : entered) {
                assertThat(e.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isGreaterThan(curatorArrives);
            }
        }
    }

    @Test
    void curatorAndBatonMembersLeaveTogetherRoundAfterRound(BatonClient observer, TestInfo info) throws Exception {
        String path = path(info);
        try (CuratorFramework curator = CuratorFrameworkFactory.newClient(ensemble.connectString(), new RetryOneTime(100))) {
            curator.start();
            curator.blockUntilConnected();
            var curatorMember = new org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier(curator, path, 3);
            DistributedDoubleBarrier a = new DistributedDoubleBarrier(newClient(), path, 3);
            DistributedDoubleBarrier b = new DistributedDoubleBarrier(newClient(), path, 3);
            for (int round = 0; round < 3; round++) {
                CompletableFuture<Long> aIn = async(a::enter);
                CompletableFuture<Long> bIn = async(b::enter);
                assertThat(curatorMember.enter(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("round %d: Curator in", round).isTrue();
                aIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                bIn.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                CompletableFuture<Long> aOut = async(a::leave);
                CompletableFuture<Long> bOut = async(b::leave);
                assertThat(curatorMember.leave(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("round %d: Curator out", round).isTrue();
                aOut.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                bOut.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(children(observer, path)).as("round %d leaves nothing behind", round).isEmpty();
            }
        }
    }

    @Test
    void aMemberCountBelowOneIsRefusedNamingIt(BatonClient client) {
        assertThatThrownBy(() -> new DistributedDoubleBarrier(client, "/double/none", 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("memberQty must be at least 1, was 0");
        assertThatThrownBy(() -> new DistributedDoubleBarrier(client, "/double/none", -3))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("memberQty must be at least 1, was -3");
    }
}

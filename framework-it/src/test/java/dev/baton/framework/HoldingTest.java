package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.Ticket;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.ReadOnlyServer;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Loss of a hold is loud, and comes when the error policy says it should. */
@EnsembleTest
class HoldingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    private static Ticket take(BatonClient client, TestInfo info) throws InterruptedException {
        return take(client, "/holding/" + info.getTestMethod().orElseThrow().getName());
    }

    private static Ticket take(BatonClient client, String dir) throws InterruptedException {
        return Contention.of(client, dir, "lock-", ContentionRule.mutex()).acquireBlocking(new byte[0], WAIT);
    }

    private BatonClient viaProxy(ChaosProxy proxy, Duration session, ErrorPolicy policy) {
        return TestClients.started(BatonClient.builder().connectString(proxy.connectString())
            .sessionTimeout(session).errorPolicy(policy));
    }

    @Test
    void underTheStandardPolicyASuspendedConnectionLosesTheHoldAtOnce(TestInfo info) throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, Duration.ofSeconds(20), ErrorPolicy.STANDARD)) {
            Ticket ticket = take(client, info);
            Holding holding = Holding.monitor(client, ticket, client.errorPolicy());
            CountDownLatch lost = new CountDownLatch(1);
            holding.onLost(lost::countDown);
            assertThat(holding.isValid()).isTrue();
            proxy.cut();
            assertThat(lost.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(holding.isValid()).isFalse();
            assertThat(holding.lossReason()).contains("connection suspended");
            proxy.heal();
            // loss is final, even though the same session came back
            await().atMost(WAIT).until(() -> client.connectionState().isConnected());
            assertThat(holding.isValid()).isFalse();
        }
    }

    @Test
    void underSessionOnlyAShortDisconnectKeepsTheHoldButExpiryLosesIt(TestInfo info) throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, Duration.ofSeconds(20), ErrorPolicy.SESSION_ONLY)) {
            Ticket ticket = take(client, info);
            Holding holding = Holding.monitor(client, ticket, client.errorPolicy());
            proxy.cut();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.SUSPENDED);
            assertThat(holding.isValid()).isTrue();
            proxy.heal();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.RECONNECTED);
            assertThat(holding.isValid()).isTrue();

            SessionKiller.expire(client, ensemble.connectString(), WAIT);
            await().atMost(WAIT).until(() -> !holding.isValid());
            await().atMost(WAIT).until(() -> holding.lossReason().isPresent());
        }
    }

    @Test
    void deletingTheHoldersNodeLosesTheHold(BatonClient client, BatonClient operator, TestInfo info) throws Exception {
        Ticket ticket = take(client, info);
        Holding holding = Holding.monitor(client, ticket, ErrorPolicy.STANDARD);
        CountDownLatch lost = new CountDownLatch(1);
        holding.onLost(lost::countDown);
        operator.delete().forPath(ticket.path());
        assertThat(lost.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(holding.lossReason()).hasValueSatisfying(r -> assertThat(r).contains("deleted"));
    }

    @Test
    void aLeaseStepsDownBeforeTheServersCouldExpireTheSession(BatonClient observer, TestInfo info) throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, Duration.ofSeconds(3), ErrorPolicy.SESSION_ONLY)) {
            Ticket ticket = take(client, info);
            Holding holding = Holding.monitorWithLease(client, ticket, Duration.ofMillis(500));
            AtomicLong lostAt = new AtomicLong();
            holding.onLost(() -> lostAt.set(System.nanoTime()));
            proxy.cut();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.SUSPENDED);
            assertThat(holding.isValid()).as("a short disconnect keeps the lease").isTrue();
            // the servers expire the session; the node goes
            await().atMost(WAIT).until(() -> observer.checkExists().forPath(ticket.path()) == null);
            long goneAt = System.nanoTime();
            assertThat(lostAt.get()).as("the lease ended before the servers deleted the node").isNotZero().isLessThan(goneAt);
            assertThat(holding.isValid()).isFalse();
        }
    }

    /**
     * A server cut off from its quorum answers reads, but cannot keep the session alive on the
     * quorum, which expires it and lets someone else take what it held. So READ_ONLY counts as
     * SUSPENDED for every hold: STANDARD loses at once, SESSION_ONLY when the client gives the
     * session up (a session timeout after the disconnect), a lease at its deadline.
     */
    @Test
    void aSessionBackOnAReadOnlyServerLosesItsHoldsUnderEveryPolicy(TestInfo info) throws Exception {
        try (BatonClient client = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
                 .sessionTimeout(Duration.ofSeconds(3)).canBeReadOnly(true))) {
            String dir = "/holding/" + info.getTestMethod().orElseThrow().getName();
            Map<String, Holding> holds = Map.of(
                "STANDARD", Holding.monitor(client, take(client, dir + "/standard"), ErrorPolicy.STANDARD),
                "SESSION_ONLY", Holding.monitor(client, take(client, dir + "/session-only"), ErrorPolicy.SESSION_ONLY),
                "lease", Holding.monitorWithLease(client, take(client, dir + "/lease"), Duration.ofMillis(200)));
            List<String> lost = new CopyOnWriteArrayList<>();
            holds.forEach((policy, holding) -> holding.onLost(() -> lost.add(policy)));
            long session = client.sessionId();

            ReadOnlyServer.loseQuorum(client, WAIT);
            assertThat(client.sessionId()).as("the same session, now on a read-only server").isEqualTo(session);
            assertThat(holds.get("STANDARD").isValid()).isFalse();

            await().atMost(WAIT).untilAsserted(() -> assertThat(lost).containsExactlyInAnyOrderElementsOf(holds.keySet()));
            holds.forEach((policy, holding) -> assertThat(holding.isValid()).as(policy).isFalse());
        }
    }

    @Test
    void closingAHoldingMeansNoCallbackLater(BatonClient client, BatonClient operator, TestInfo info) throws Exception {
        Ticket ticket = take(client, info);
        Holding holding = Holding.monitor(client, ticket, ErrorPolicy.STANDARD);
        CountDownLatch lost = new CountDownLatch(1);
        holding.onLost(lost::countDown);
        holding.close();
        operator.delete().forPath(ticket.path());
        assertThat(lost.await(500, TimeUnit.MILLISECONDS)).isFalse();
    }
}

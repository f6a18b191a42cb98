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
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
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
        String dir = "/holding/" + info.getTestMethod().orElseThrow().getName();
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

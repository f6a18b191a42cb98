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
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The servers grant at most 3 s while the clients ask for 30 s, as an ensemble with a small
 * {@code maxSessionTimeout} does. Everything the client times by the session — the LOST timer,
 * a hold's lease — must use what was granted, above all while disconnected, when it matters.
 */
@EnsembleTest(maxSessionTimeoutMillis = 3_000)
class GrantedSessionTimeoutTest {
    private static final Duration ASKED = Duration.ofSeconds(30);
    private static final Duration GRANTED = Duration.ofSeconds(3);
    /** For the LOST timer to fire and its event to reach a listener on a loaded machine. */
    private static final Duration DELIVERY = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    private static BatonClient viaProxy(ChaosProxy proxy) {
        return TestClients.started(BatonClient.builder().connectString(proxy.connectString())
            .sessionTimeout(ASKED).errorPolicy(ErrorPolicy.SESSION_ONLY));
    }

    private static Ticket take(BatonClient client, TestInfo info) throws InterruptedException {
        return Contention.of(client, "/granted/" + info.getTestMethod().orElseThrow().getName(), "lock-", ContentionRule.mutex())
            .acquireBlocking(new byte[0], WAIT);
    }

    @Test
    void theGrantedTimeoutIsReportedConnectedOrNot() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy)) {
            assertThat(client.negotiatedSessionTimeout()).as("connected").isEqualTo(GRANTED);
            proxy.cut();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.SUSPENDED);
            assertThat(client.negotiatedSessionTimeout()).as("disconnected").isEqualTo(GRANTED);
        }
    }

    @Test
    void aSuspendedSessionIsReportedLostOneGrantedTimeoutAfterTheDisconnect() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy)) {
            AtomicLong lostAt = new AtomicLong();
            client.addConnectionStateListener((c, state) -> {
                if (state == ConnectionState.LOST) {
                    lostAt.compareAndSet(0, System.nanoTime());
                }
            });
            long cutAt = System.nanoTime();
            proxy.cut();
            await().atMost(WAIT).until(() -> lostAt.get() != 0 || System.nanoTime() - cutAt > GRANTED.plus(DELIVERY).toNanos());
            assertThat(lostAt.get()).as("LOST heard").isNotZero();
            assertThat(Duration.ofNanos(lostAt.get() - cutAt)).as("from the cut to LOST")
                .isLessThanOrEqualTo(GRANTED.plus(DELIVERY));
        }
    }

    @Test
    void aLeaseEndsBeforeTheServersExpireTheSession(BatonClient observer, TestInfo info) throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy)) {
            Ticket ticket = take(client, info);
            Holding holding = Holding.monitorWithLease(client, ticket, Duration.ofMillis(300));
            AtomicLong lostAt = new AtomicLong();
            holding.onLost(() -> lostAt.set(System.nanoTime()));
            proxy.cut();
            // the servers expire the session about 3 s after they last heard from it: the node goes
            await().atMost(WAIT).until(() -> observer.checkExists().forPath(ticket.path()) == null);
            long goneAt = System.nanoTime();
            assertThat(lostAt.get()).as("the lease ended before the servers deleted the holder's node")
                .isNotZero().isLessThan(goneAt);
            assertThat(holding.isValid()).isFalse();
        }
    }
}

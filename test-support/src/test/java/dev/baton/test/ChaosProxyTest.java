package dev.baton.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

@EnsembleTest
class ChaosProxyTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    @Test
    void cutDisconnectsAndHealReconnectsWithTheSameSession() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             ZooKeeperEvents client = new ZooKeeperEvents(proxy.connectString(), Duration.ofSeconds(15))) {
            client.awaitState(KeeperState.SyncConnected, WAIT);
            long session = client.zk.getSessionId();

            proxy.cut();
            client.awaitState(KeeperState.Disconnected, WAIT);
            assertThatThrownBy(() -> client.zk.exists("/", false))
                .isInstanceOf(KeeperException.ConnectionLossException.class);

            proxy.heal();
            client.awaitState(KeeperState.SyncConnected, WAIT);
            assertThat(client.zk.getSessionId()).isEqualTo(session);
            assertThat(client.zk.exists("/", false)).isNotNull();
        }
    }

    @Test
    void delayHoldsEveryRoundTripAtLeastTwiceTheLatency() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             ZooKeeperEvents client = new ZooKeeperEvents(proxy.connectString(), Duration.ofSeconds(15))) {
            client.awaitState(KeeperState.SyncConnected, WAIT);
            proxy.delay(Duration.ofMillis(200));
            long start = System.nanoTime();
            client.zk.create("/delayed", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            // a lower bound only: the request and the reply each waited 200 ms in the proxy
            assertThat(tookMillis).isGreaterThanOrEqualTo(400);
            proxy.delay(Duration.ZERO);
            assertThat(client.zk.exists("/delayed", false)).isNotNull();
        }
    }

    @Test
    void pauseHoldsTrafficWithoutDroppingTheConnection() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             ZooKeeperEvents client = new ZooKeeperEvents(proxy.connectString(), Duration.ofSeconds(15))) {
            client.awaitState(KeeperState.SyncConnected, WAIT);
            proxy.pause();
            CompletableFuture<Stat> pending = new CompletableFuture<>();
            client.zk.exists("/", false, (rc, path, ctx, stat) -> pending.complete(stat), null);
            // held, not dropped: the reply stays away for as long as the pause lasts
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !pending.isDone());
            assertThat(proxy.liveConnections()).isEqualTo(1);
            proxy.resume();
            assertThat(pending.get(20, TimeUnit.SECONDS)).isNotNull();
        }
    }

    @Test
    void aFaultOnAClosedProxyIsRefusedRatherThanDoingNothing() {
        ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
        proxy.close();

        // a cut that cuts nothing would let a fault test pass without any fault
        assertThatThrownBy(proxy::cut).isExactlyInstanceOf(IllegalStateException.class)
            .hasMessage("the proxy " + proxy.connectString() + " -> " + ensemble.connectString(1)
                + " is closed: cut() would provoke nothing; start a new ChaosProxy for the fault");
        assertThatThrownBy(() -> proxy.delay(Duration.ofMillis(100))).isExactlyInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is closed: delay() would provoke nothing");
        assertThatThrownBy(proxy::pause).isExactlyInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is closed: pause() would provoke nothing");
        assertThatThrownBy(proxy::pauseReplies).isExactlyInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is closed: pauseReplies() would provoke nothing");
        // a wrong argument is the caller's mistake whether or not the proxy is open: it is reported as such
        assertThatThrownBy(() -> proxy.delay(Duration.ofMillis(-100))).isExactlyInstanceOf(IllegalArgumentException.class)
            .hasMessage("latency must not be negative, was PT-0.1S");
        // undoing a fault on a closed proxy has nothing to undo, and a clean-up after close must not fail
        proxy.heal();
        proxy.resume();
        proxy.delay(Duration.ZERO);
    }

    @Test
    void aFaultOnAClosedLinkIsRefusedRatherThanDoingNothing() {
        ClientLink link = ClientLink.to(ensemble);
        link.close();

        assertThatThrownBy(link::cut).isExactlyInstanceOf(IllegalStateException.class)
            .hasMessage("the client link " + link.connectString() + " is closed: cut() would provoke nothing; "
                + "make a new ClientLink for the fault");
        assertThatThrownBy(() -> link.delay(Duration.ofMillis(100))).isExactlyInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is closed: delay() would provoke nothing");
        assertThatThrownBy(link::pause).isExactlyInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is closed: pause() would provoke nothing");
        assertThatThrownBy(() -> link.delay(Duration.ofMillis(-100))).isExactlyInstanceOf(IllegalArgumentException.class)
            .hasMessage("latency must not be negative, was PT-0.1S");
        link.heal();
        link.resume();
    }

    @Test
    void aLinkToAClosedEnsembleIsRefused() {
        EmbeddedEnsemble closed = EmbeddedEnsemble.builder().nodes(1).build();
        closed.start();
        closed.close();

        // its proxies would lead nowhere: a client through them never connects, and a cut proves nothing
        assertThatThrownBy(() -> ClientLink.to(closed)).isExactlyInstanceOf(IllegalStateException.class)
            .hasMessageContaining(closed + " is closed: a link to it would reach no server")
            .hasMessageContaining("link to an ensemble that is still open");
    }

    @Test
    void targetMustBeOneHostAndPort() {
        assertThatThrownBy(() -> ChaosProxy.start("127.0.0.1:1,127.0.0.1:2"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("target must be one host:port, was '127.0.0.1:1,127.0.0.1:2'");
        assertThatThrownBy(() -> ChaosProxy.start("localhost"))
            .isInstanceOf(IllegalArgumentException.class);
    }
}

package dev.baton.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

@EnsembleTest(nodes = 3)
class SessionKillerTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void victimReceivesExpiredAndItsEphemeralNodesDisappear(@ConnectString String connect) throws Exception {
        try (ZooKeeperEvents victim = new ZooKeeperEvents(connect, Duration.ofSeconds(30));
             ZooKeeperEvents observer = new ZooKeeperEvents(connect, Duration.ofSeconds(30))) {
            victim.awaitState(KeeperState.SyncConnected, WAIT);
            observer.awaitState(KeeperState.SyncConnected, WAIT);
            victim.zk.create("/owned-by-victim", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);

            SessionKiller.expire(victim.zk, connect, WAIT);

            victim.awaitState(KeeperState.Expired, WAIT);
            assertThat(victim.zk.getState()).isEqualTo(ZooKeeper.States.CLOSED);
            await().atMost(WAIT).until(() -> observer.zk.exists("/owned-by-victim", false) == null);
        }
    }

    @Test
    void aClientBetweenSessionsIsWaitedForAndTheSessionItGetsIsEnded(@ConnectString String connect,
                                                                     dev.baton.server.EmbeddedEnsemble ensemble) throws Exception {
        try (ClientLink link = ClientLink.to(ensemble)) {
            link.cut();
            BatonClient client = BatonClient.builder().connectString(link.connectString())
                .sessionTimeout(Duration.ofSeconds(30)).build();
            try {
                client.start();
                List<ConnectionState> states = new CopyOnWriteArrayList<>();
                client.addConnectionStateListener((c, state) -> states.add(state));
                assertThat(client.zookeeper().getSessionId()).as("never connected: no session yet").isZero();

                assertThatThrownBy(() -> SessionKiller.expire(client, connect, Duration.ofMillis(300)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("no session to expire");

                link.heal();
                SessionKiller.expire(client, connect, WAIT); // waits for the session the client now gets, and ends it
                await().atMost(WAIT).until(() -> states.contains(ConnectionState.LOST));
                assertThat(states).as("connected first, then lost that session").startsWith(ConnectionState.CONNECTED);
            } finally {
                client.close();
            }
        }
    }

    @Test
    void expiresAClientWhoseConnectionIsCut(@ConnectString String connect, dev.baton.server.EmbeddedEnsemble ensemble)
        throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             ZooKeeperEvents victim = new ZooKeeperEvents(proxy.connectString(), Duration.ofSeconds(30))) {
            victim.awaitState(KeeperState.SyncConnected, WAIT);
            proxy.cut();
            victim.awaitState(KeeperState.Disconnected, WAIT);

            SessionKiller.expire(victim.zk, connect, WAIT);
            proxy.heal();

            victim.awaitState(KeeperState.Expired, WAIT);
        }
    }

    @Test
    void aClosedHandleIsRefusedRatherThanReportedExpired(@ConnectString String connect) throws Exception {
        ZooKeeperEvents victim = new ZooKeeperEvents(connect, Duration.ofSeconds(30));
        victim.awaitState(KeeperState.SyncConnected, WAIT);
        victim.close();

        // the session ended with close(): "expiring" it would prove nothing about what the test set out to provoke
        assertThatThrownBy(() -> SessionKiller.expire(victim.zk, connect, WAIT))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("the handle is closed")
            .hasMessageContaining(Long.toHexString(victim.zk.getSessionId()));
    }
}

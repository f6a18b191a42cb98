package dev.baton.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
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
}

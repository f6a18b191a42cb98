package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A three-server ensemble behaves like a real ZooKeeper quorum: majority writes, elections, catch-up. */
class EmbeddedEnsembleQuorumTest {
    private static EmbeddedEnsemble ensemble;

    @BeforeAll
    static void startEnsemble() {
        ensemble = EmbeddedEnsemble.builder().nodes(3).build();
        ensemble.start();
    }

    @AfterAll
    static void closeEnsemble() {
        ensemble.close();
    }

    @AfterEach
    void bringEveryServerBack() {
        for (int id = 1; id <= ensemble.size(); id++) {
            if (ensemble.role(id) == ServerRole.STOPPED) {
                ensemble.restart(id);
            }
        }
    }

    @Test
    void startedEnsembleHasOneLeaderAndTwoFollowers() {
        int leader = ensemble.leaderId();
        assertThat(ensemble.size()).isEqualTo(3);
        for (int id = 1; id <= 3; id++) {
            assertThat(ensemble.role(id)).isEqualTo(id == leader ? ServerRole.LEADER : ServerRole.FOLLOWER);
        }
        assertThat(ensemble.connectString().split(",")).hasSize(3);
    }

    @Test
    void majorityKeepsWritingAndMinorityCannotThenRestartedServerCatchesUp() throws Exception {
        int first = 1;
        int second = 2;
        int survivor = 3;
        try (ZooKeeper viaSurvivor = ZooKeepers.connect(ensemble.connectString(survivor), Duration.ofSeconds(10))) {
            ensemble.stop(first);
            viaSurvivor.create("/while-one-down", bytes("a"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);

            ensemble.stop(second);
            // the survivor alone is no quorum: it stops serving, so the write cannot commit
            await().atMost(Duration.ofSeconds(20)).until(() -> ensemble.role(survivor) == ServerRole.LOOKING);
            assertThatThrownBy(() -> viaSurvivor.create("/while-two-down", bytes("b"),
                ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT))
                .isInstanceOf(KeeperException.ConnectionLossException.class);
        }

        ensemble.restart(first);
        ensemble.restart(second);
        try (ZooKeeper viaFirst = ZooKeepers.connect(ensemble.connectString(first), Duration.ofSeconds(10))) {
            // server 1 was down for the first write and must have caught up from the leader
            assertThat(new String(viaFirst.getData("/while-one-down", false, null), StandardCharsets.UTF_8)).isEqualTo("a");
            assertThat(viaFirst.exists("/while-two-down", false)).isNull();
        }
    }

    @Test
    void stoppingTheLeaderElectsAnotherOne() throws Exception {
        int oldLeader = ensemble.leaderId();
        ensemble.stop(oldLeader);

        int newLeader = ensemble.leaderId();
        assertThat(newLeader).isNotEqualTo(oldLeader);
        assertThat(ensemble.role(oldLeader)).isEqualTo(ServerRole.STOPPED);
        int other = 6 - oldLeader - newLeader;
        try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(other), Duration.ofSeconds(10))) {
            zk.create("/after-failover", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
    }

    @Test
    void unknownServerIdIsRejectedWithTheValidRange() {
        assertThatThrownBy(() -> ensemble.stop(4))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("server id must be between 1 and 3, was 4");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

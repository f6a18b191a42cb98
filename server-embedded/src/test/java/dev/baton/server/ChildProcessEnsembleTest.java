package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/** Servers as child JVMs: killed with SIGKILL, frozen with SIGSTOP, and all gone after close(). */
class ChildProcessEnsembleTest {

    @Test
    void killingOrFreezingServersBehavesLikeARealEnsemble() throws Exception {
        List<Long> pids = new ArrayList<>();
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).mode(ServerMode.CHILD_PROCESSES).build()) {
            ensemble.start();
            for (int id = 1; id <= 3; id++) {
                pids.add(ensemble.pid(id));
            }
            int leader = ensemble.leaderId();
            try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(), Duration.ofSeconds(15))) {
                zk.create("/before", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);

                ensemble.kill(leader);
                assertThat(ensemble.role(leader)).isEqualTo(ServerRole.STOPPED);
                int newLeader = ensemble.leaderId();
                assertThat(newLeader).isNotEqualTo(leader);

                int follower = 6 - leader - newLeader;
                ensemble.pause(follower);
                assertThat(ensemble.role(follower)).isEqualTo(ServerRole.PAUSED);
                // the leader alone is no quorum once its follower froze
                await().atMost(Duration.ofSeconds(30)).until(() -> ensemble.role(newLeader) == ServerRole.LOOKING);
                ensemble.resume(follower);
                ensemble.restart(leader);
                await().atMost(Duration.ofSeconds(30)).until(() -> ensemble.currentLeaderId().isPresent()
                    && ensemble.role(follower).isServing() && ensemble.role(leader).isServing());
            }
            try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(leader), Duration.ofSeconds(15))) {
                assertThat(zk.exists("/before", false)).as("the killed server kept its data").isNotNull();
            }
        }
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("server process %d after close", pid).isFalse();
        }
    }

    @Test
    void partitionsCutChildProcessServersApartThroughTheProxiesOfThisJvm() throws Exception {
        Duration wait = Duration.ofSeconds(30);
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).mode(ServerMode.CHILD_PROCESSES)
                 .peerProxies(true).build()) {
            ensemble.start();
            int oldLeader = ensemble.leaderId();
            ensemble.isolate(oldLeader);
            await().atMost(wait).until(() -> ensemble.currentLeaderId().isPresent()
                && ensemble.currentLeaderId().getAsInt() != oldLeader);
            int newLeader = ensemble.leaderId();
            try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(newLeader), Duration.ofSeconds(15))) {
                zk.create("/during-partition", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            await().atMost(wait).until(() -> ensemble.role(oldLeader) == ServerRole.LOOKING);

            ensemble.healPartitions();
            await().atMost(wait).until(ensemble::inSync);
            try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(oldLeader), Duration.ofSeconds(15))) {
                assertThat(zk.exists("/during-partition", false)).as("the old leader caught up after the heal").isNotNull();
            }
        }
    }

    @Test
    void inProcessServersCannotBeFrozen() {
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().build()) {
            assertThatThrownBy(() -> ensemble.pause(1))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("needs an ensemble built with mode(ServerMode.CHILD_PROCESSES)");
        }
    }
}

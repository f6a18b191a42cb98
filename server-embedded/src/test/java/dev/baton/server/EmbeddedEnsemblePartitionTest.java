package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Partitions between servers: the side with a majority elects a leader and takes writes, the
 * minority stops serving, and after the heal every server holds the same data at the same zxid.
 */
class EmbeddedEnsemblePartitionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration SESSION = Duration.ofSeconds(15);

    private static EmbeddedEnsemble ensemble;

    @BeforeAll
    static void start() {
        ensemble = EmbeddedEnsemble.builder().nodes(3).peerProxies(true).build();
        ensemble.start();
    }

    @AfterAll
    static void close() {
        ensemble.close();
    }

    @AfterEach
    void heal() {
        ensemble.healPartitions();
        await().atMost(WAIT).until(ensemble::inSync);
    }

    @Test
    void anIsolatedLeaderStopsServingAndTheOtherTwoElectALeaderThatTakesWrites() throws Exception {
        int oldLeader = ensemble.leaderId();
        ensemble.isolate(oldLeader);
        assertThat(ensemble.reachableFrom(oldLeader)).containsExactly(oldLeader);

        await().atMost(WAIT).until(() -> ensemble.currentLeaderId().isPresent()
            && ensemble.currentLeaderId().getAsInt() != oldLeader);
        await().atMost(WAIT).until(() -> ensemble.role(oldLeader) == ServerRole.LOOKING);
        List<Integer> majority = others(oldLeader);
        writeThrough(majority, "/isolated-leader");
        assertThat(writeSucceedsOnlyThrough(oldLeader)).as("a write through the isolated old leader").isFalse();
        assertThat(ensemble.role(oldLeader)).as("without a quorum the old leader serves nobody").isEqualTo(ServerRole.LOOKING);
        assertThat(ensemble.whole()).as("whole, with a server looking").isFalse();

        ensemble.healPartitions();
        await().atMost(WAIT).until(ensemble::whole);
        assertThat(ensemble.currentLeaderId()).as("the rejoined old leader follows").isNotEqualTo(java.util.OptionalInt.of(oldLeader));
        await().atMost(WAIT).until(ensemble::inSync);
        assertEveryServerHas("/isolated-leader");
    }

    @Test
    void anIsolatedFollowerLeavesTheWritesToTheMajority() throws Exception {
        int leader = ensemble.leaderId();
        int follower = others(leader).get(0);
        ensemble.isolate(follower);

        await().atMost(WAIT).until(() -> ensemble.role(follower) == ServerRole.LOOKING);
        assertThat(ensemble.currentLeaderId()).as("the leader keeps its quorum").hasValue(leader);
        writeThrough(others(follower), "/isolated-follower");
        assertThat(writeSucceedsOnlyThrough(follower)).as("a write through the isolated follower").isFalse();

        ensemble.healPartitions();
        await().atMost(WAIT).until(ensemble::inSync);
        assertEveryServerHas("/isolated-follower");
    }

    @Test
    void aSilentSplitKeepsTheMinorityAnsweringUntilItsOwnTimeoutThenHeals() throws Exception {
        int leader = ensemble.leaderId();
        int minority = others(leader).get(1);
        try (ZooKeeper onMinority = ZooKeepers.connect(ensemble.connectString(minority), SESSION)) {
            ensemble.partition(Set.of(minority), PartitionStyle.SILENT);
            // nothing tells the minority it is cut off: it still answers reads until syncLimit ticks pass
            assertThat(onMinority.exists("/", false)).isNotNull();
            writeThrough(others(minority), "/silent-split");

            await().atMost(WAIT).until(() -> ensemble.role(minority) == ServerRole.LOOKING);
            assertThat(ensemble.currentLeaderId()).hasValue(leader);
        }
        ensemble.healPartitions();
        await().atMost(WAIT).until(ensemble::inSync);
        assertEveryServerHas("/silent-split");
    }

    @Test
    void partitionsAreRefusedWithoutPeerProxiesAndForSidesThatSplitNothing() {
        try (EmbeddedEnsemble direct = EmbeddedEnsemble.builder().nodes(3).build()) {
            assertThatThrownBy(() -> direct.isolate(1))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("needs an ensemble built with peerProxies(true)");
        }
        assertThatThrownBy(() -> EmbeddedEnsemble.builder().peerProxies(true).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two or more servers");
        assertThatThrownBy(() -> ensemble.partition(Set.of(1, 2, 3)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("some but not all");
        assertThatThrownBy(() -> ensemble.partition(Set.of()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("some but not all");
        assertThatThrownBy(() -> ensemble.isolate(4))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between 1 and 3, was 4");
    }

    private static List<Integer> others(int id) {
        List<Integer> others = new ArrayList<>();
        for (int i = 1; i <= ensemble.size(); i++) {
            if (i != id) {
                others.add(i);
            }
        }
        return others;
    }

    private static void writeThrough(List<Integer> servers, String path) throws Exception {
        String connect = servers.stream().map(ensemble::connectString).collect(Collectors.joining(","));
        try (ZooKeeper zk = ZooKeepers.connect(connect, SESSION)) {
            zk.create(path, path.getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
    }

    /** Whether a client of server {@code id} alone gets a write committed (it cannot without a quorum). */
    private static boolean writeSucceedsOnlyThrough(int id) throws IOException, InterruptedException {
        try (ZooKeeper zk = new ZooKeeper(ensemble.connectString(id), (int) SESSION.toMillis(), event -> { })) {
            zk.create("/through-" + id, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            return true;
        } catch (KeeperException e) {
            return false;
        }
    }

    private static void assertEveryServerHas(String path) throws Exception {
        for (int id = 1; id <= ensemble.size(); id++) {
            try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(id), SESSION)) {
                assertThat(zk.getData(path, false, null)).as("server %d's copy of %s", id, path)
                    .isEqualTo(path.getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}

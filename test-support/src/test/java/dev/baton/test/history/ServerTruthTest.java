package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.CreatedNode;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

@EnsembleTest(nodes = 3)
class ServerTruthTest {
    EmbeddedEnsemble ensemble;

    /** The latch's first set creates the latch node and its first generation in one transaction. */
    @Test
    void nodesCreatedInOneTransactionAreEachTheirOwnLife(BatonClient client) throws Exception {
        try (ServerTruth truth = ServerTruth.watch(ensemble, List.of("/multi"))) {
            client.transaction().create("/multi", new byte[0]).create("/multi/g-1", new byte[0]).commit();
            client.delete().forPath("/multi/g-1");

            await().atMost(Duration.ofSeconds(10)).until(() -> truth.lives("/multi/g-1").stream()
                .anyMatch(ServerTruth.Node::deleted));
            ServerTruth.Node root = truth.lives("/multi").get(0);
            ServerTruth.Node child = truth.lives("/multi/g-1").get(0);
            assertThat(child.czxid()).as("the child's creation zxid, the same transaction as its parent's")
                .isEqualTo(root.czxid()).isPositive();
            assertThat(child.deletionExact()).isTrue();
        }
    }

    /**
     * With every observer gone (as when all three are reconnecting after a leader's death), a
     * node's whole life and a session's end still reach the truth, from the servers' logs, with
     * their exact zxids, data and owner.
     */
    @Test
    void theServersLogsSupplyWhatNoObserverSaw(BatonClient client, BatonClient owner) throws Exception {
        ServerTruth truth = ServerTruth.watch(ensemble, List.of("/unseen"));
        truth.close();

        client.create().forPath("/unseen");
        CreatedNode made = client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
            .forPathWithStat("/unseen/item-", "p0-7".getBytes(StandardCharsets.UTF_8));
        String item = made.path();
        Stat created = made.stat();
        client.delete().forPath(item);
        long deletedAt = Zxids.lastSeen(client);
        String ephemeral = owner.create().withMode(CreateMode.EPHEMERAL).forPath("/unseen/claim");
        long session = owner.sessionId();
        owner.close();
        truth.settle();

        assertThat(truth.logProblems()).isEmpty();
        ServerTruth.Node life = truth.lives(item).get(0);
        assertThat(life.czxid()).isEqualTo(created.getCzxid());
        assertThat(life.dzxid()).isEqualTo(deletedAt);
        assertThat(life.deletionExact()).isTrue();
        assertThat(new String(life.data(), StandardCharsets.UTF_8)).isEqualTo("p0-7");
        assertThat(life.deletedNanosFloor()).isLessThanOrEqualTo(life.deletedNanos());
        ServerTruth.Node claim = truth.lives(ephemeral).get(0);
        assertThat(claim.owner()).isEqualTo(session);
        assertThat(truth.sessionEnd(session)).hasValueSatisfying(end -> assertThat(end.zxid()).isEqualTo(claim.dzxid()));
        assertThat(truth.fromLogs()).isGreaterThanOrEqualTo(4);
        assertThat(truth.inexactDeletions()).isZero();
    }
}

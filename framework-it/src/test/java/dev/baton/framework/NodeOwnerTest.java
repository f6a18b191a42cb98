package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.test.EnsembleTest;
import java.time.Duration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeOwner} on every kind of node the servers make: only an ephemeral node is ephemeral and
 * owned, in every reply that carries a stat. Container and TTL nodes mark the owner field on the
 * servers but not in what clients receive; this pins that, since the helper relies on it.
 */
@EnsembleTest
class NodeOwnerTest {
    private static final byte[] NONE = new byte[0];

    @Test
    void onlyAnEphemeralNodeIsEphemeralAndOwnedByItsSessionInEveryReply(BatonClient client, BatonClient other) throws Exception {
        String base = "/node-owner";
        client.create().forPath(base);
        CreatedNode persistent = client.create().forPathWithStat(base + "/persistent", NONE);
        CreatedNode ttl = client.create().withMode(CreateMode.PERSISTENT_WITH_TTL).withTtl(Duration.ofMinutes(10))
            .forPathWithStat(base + "/ttl", NONE);
        CreatedNode container = client.create().withMode(CreateMode.CONTAINER).forPathWithStat(base + "/container", NONE);
        client.create().forPath(base + "/container/child");  // a container that holds a child, as the servers keep them
        CreatedNode mine = client.create().withMode(CreateMode.EPHEMERAL).forPathWithStat(base + "/mine", NONE);
        CreatedNode theirs = other.create().withMode(CreateMode.EPHEMERAL).forPathWithStat(base + "/theirs", NONE);

        for (CreatedNode node : new CreatedNode[] {persistent, ttl, container}) {
            for (Stat stat : replies(client, node)) {
                assertThat(NodeOwner.isEphemeral(stat)).as("%s is not ephemeral (owner field 0x%s)", node.path(),
                    Long.toHexString(stat.getEphemeralOwner())).isFalse();
                assertThat(NodeOwner.isOwnedBy(stat, client.sessionId())).as("%s has no owner", node.path()).isFalse();
            }
        }
        for (Stat stat : replies(client, mine)) {
            assertThat(NodeOwner.isEphemeral(stat)).isTrue();
            assertThat(NodeOwner.isOwnedBy(stat, client.sessionId())).as("owned by the session that made it").isTrue();
            assertThat(NodeOwner.isOwnedBy(stat, other.sessionId())).as("not by another").isFalse();
        }
        for (Stat stat : replies(client, theirs)) {
            assertThat(NodeOwner.isEphemeral(stat)).isTrue();
            assertThat(NodeOwner.isOwnedBy(stat, other.sessionId())).isTrue();
            assertThat(NodeOwner.isOwnedBy(stat, client.sessionId())).isFalse();
        }
        assertThat(NodeOwner.isOwnedBy(persistent.stat(), 0)).as("a client without a session owns nothing").isFalse();
    }

    /** The stat of the create's reply, of a read and of an exists. */
    private static Stat[] replies(BatonClient client, CreatedNode node) throws InterruptedException {
        return new Stat[] {node.stat(), client.getData().forPathWithStat(node.path()).stat(), client.checkExists().forPath(node.path())};
    }
}

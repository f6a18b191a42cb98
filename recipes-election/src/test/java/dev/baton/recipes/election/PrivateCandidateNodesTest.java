package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.AclProvider;
import dev.baton.framework.BatonClient;
import dev.baton.framework.NoAuthException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.PrivateNodes;
import java.time.Duration;
import java.util.Set;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.Test;

/**
 * Two identities stand in one election whose folder lets anyone create, list and delete in it
 * while each candidate's node is its creator's alone (docs/security.md, "what ACL shapes work"):
 * the follower, which may not read the node before its own, watches the folder's children and
 * leads when the leader leaves. Reading another candidate's id stays refused. Before the engine's
 * fallback the follower's candidacy failed on {@code NoAuthException: getData <node>}.
 */
@EnsembleTest
class PrivateCandidateNodesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String PATH = "/private/election";
    private static final Set<String> FOLDERS = Set.of("/private", PATH);
    private static final AclProvider PRIVATE_NODES = PrivateNodes.provider(FOLDERS::contains);

    EmbeddedEnsemble ensemble;

    private BatonClient client(String user) {
        return PrivateNodes.client(ensemble, user, PRIVATE_NODES);
    }

    @Test
    void theFollowerOfAnotherIdentityLeadsWhenTheLeaderLeaves() throws Exception {
        try (BatonClient alice = client("alice"); BatonClient bob = client("bob");
             LeaderLatch first = new LeaderLatch(alice, PATH, "alice");
             LeaderLatch second = new LeaderLatch(bob, PATH, "bob")) {
            first.start();
            first.await();
            second.start();
            assertThat(second.await(Duration.ofMillis(500))).as("bob follows").isFalse();
            assertThatThrownBy(second::getLeader).as("bob may not read alice's id").isInstanceOf(NoAuthException.class);

            first.close();
            assertThat(second.await(WAIT)).as("bob leads once alice left").isTrue();
            assertThat(second.hasLeadership()).isTrue();
        }
    }
}

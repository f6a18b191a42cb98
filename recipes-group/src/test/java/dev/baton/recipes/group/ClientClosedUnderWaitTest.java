package dev.baton.recipes.group;

import static dev.baton.test.CloseUnderWait.endsWithClientClosed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CutOffClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/**
 * A group call that waits through a client ends at once with {@code ClientClosedException} when
 * that client is closed, instead of waiting out its timeout: a closed client never connects
 * again, so the node is never created and the group never loaded.
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    /** Far longer than {@code CloseUnderWait.PROMPTLY}: a wait that runs its course fails the test. */
    private static final Duration LONG = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;

    @Test
    void aMemberAwaitingItsJoinEnds() throws Exception {
        try (CutOffClient cutOff = CutOffClient.start(ensemble)) {
            GroupMember member = new GroupMember(cutOff.client(), "/closed-under-wait/group", "m1", new byte[0]);
            cutOff.assertStartsPromptly("group member", member::start);
            // no connection: the join waits for one, which a closed client never makes
            var closed = endsWithClientClosed(cutOff.client(), () -> true, () -> member.awaitJoined(LONG));
            assertThat(closed).hasMessageContaining("/closed-under-wait/group");
        }
    }

    @Test
    void aNodeAwaitingItsFirstCreateEnds() throws Exception {
        try (CutOffClient cutOff = CutOffClient.start(ensemble)) {
            PersistentNode node = new PersistentNode(cutOff.client(), CreateMode.EPHEMERAL, false, "/closed-under-wait/node", new byte[0]);
            cutOff.assertStartsPromptly("persistent node", node::start);
            var closed = endsWithClientClosed(cutOff.client(), () -> true, () -> node.waitForInitialCreate(LONG));
            assertThat(closed).hasMessageContaining("/closed-under-wait/node");
        }
    }
}

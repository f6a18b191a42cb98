package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A node that lasts while touched, survives its owner's session, and goes about a TTL after the touching stops. */
@EnsembleTest
class PersistentTtlNodeTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration TTL = Duration.ofSeconds(1);

    @ConnectString
    String connect;

    @Test
    void theNodeLastsWhileTouchedThroughASessionExpiryAndGoesAfterItsTtlOnceClosed(BatonClient other) throws Exception {
        try (BatonClient client = TestClients.started(connect, Duration.ofSeconds(10))) {
            PersistentTtlNode node = new PersistentTtlNode(client, "/ttl/members/w1", TTL, "w1".getBytes(UTF_8));
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            assertThat(other.getData().forPath("/ttl/members/w1")).isEqualTo("w1".getBytes(UTF_8));
            assertThat(other.getChildren().forPath("/ttl/members/w1")).as("Curator's layout: a TTL child named touch")
                .containsExactly("touch");

            // three TTLs and a session expiry later it is still there: the touches keep it
            SessionKiller.expire(client, connect, WAIT);
            await().during(TTL.multipliedBy(3)).atMost(WAIT).until(() -> other.checkExists().forPath("/ttl/members/w1") != null);

            node.close();
            long closedAt = System.nanoTime();
            await().atMost(WAIT).until(() -> other.checkExists().forPath("/ttl/members/w1") == null);
            assertThat(Duration.ofNanos(System.nanoTime() - closedAt)).as("not before a TTL after the last touch (at most half a TTL before close)").isGreaterThanOrEqualTo(TTL.dividedBy(2));
        }
    }

    @Test
    void aSecondStartIsRefusedAndAddsNoSecondToucher(BatonClient other) throws Exception {
        // a TTL of two minutes touches every minute: within this test only a (re)creation writes the child
        try (BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
             PersistentTtlNode node = new PersistentTtlNode(client, "/ttl/twice", Duration.ofMinutes(2), "w".getBytes(UTF_8))) {
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            assertThatThrownBy(node::start).isInstanceOf(IllegalStateException.class)
                .hasMessage("PersistentTtlNode /ttl/twice was already started");

            // take the node away: it is made again, and its child created by one touch, not written again by a second
            other.transaction().delete("/ttl/twice/touch").delete("/ttl/twice").commit();
            await().atMost(WAIT).until(() -> other.checkExists().forPath("/ttl/twice/touch") != null);
            await().during(Duration.ofSeconds(1)).atMost(WAIT).untilAsserted(() ->
                assertThat(other.checkExists().forPath("/ttl/twice/touch").getVersion())
                    .as("the child's version: written once per creation, by one toucher").isZero());
        }
    }

    @Test
    void aStartRefusedByAClosedClientIsRefusedTheSameWayAgainAndAClosedNodeCannotStart(BatonClient client) throws Exception {
        BatonClient closed = TestClients.started(connect, Duration.ofSeconds(10));
        closed.close();
        try (PersistentTtlNode node = new PersistentTtlNode(closed, "/ttl/closed-client", TTL, new byte[0])) {
            assertThatThrownBy(node::start).isInstanceOf(dev.baton.framework.ClientClosedException.class)
                .hasMessage("start PersistentNode /ttl/closed-client: the client is closed");
            assertThatThrownBy(node::start).as("the real reason again, not 'already started'")
                .isInstanceOf(dev.baton.framework.ClientClosedException.class)
                .hasMessage("start PersistentNode /ttl/closed-client: the client is closed");
        }
        PersistentTtlNode node = new PersistentTtlNode(client, "/ttl/closed-node", TTL, new byte[0]);
        node.close();
        assertThatThrownBy(node::start).isInstanceOf(IllegalStateException.class)
            .hasMessage("PersistentTtlNode /ttl/closed-node is closed: a closed node cannot start again, make a new one");
    }
}

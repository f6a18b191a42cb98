package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
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
}

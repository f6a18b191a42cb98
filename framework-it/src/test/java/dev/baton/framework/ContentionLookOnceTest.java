package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Ticket;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

@EnsembleTest
class ContentionLookOnceTest {
    private static final byte[] NONE = new byte[0];
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void zeroTimeoutHoldsAFreeLine(BatonClient client) throws Exception {
        Contention engine = Contention.of(client, "/look-once/free", "lock-", ContentionRule.mutex());

        Ticket ticket = engine.acquireBlocking(NONE, Duration.ZERO);

        assertThat(ticket).as("a zero timeout on a free line is a successful try-lock").isNotNull();
        engine.release(ticket).get();
    }

    @Test
    void zeroTimeoutOnAHeldLineGivesUpAndLeavesNoNode(BatonClient a, BatonClient b) throws Exception {
        Contention holder = Contention.of(a, "/look-once/held", "lock-", ContentionRule.mutex());
        Contention other = Contention.of(b, "/look-once/held", "lock-", ContentionRule.mutex());
        Ticket held = holder.acquireBlocking(NONE, WAIT);

        assertThat(other.acquireBlocking(NONE, Duration.ZERO)).isNull();

        await().atMost(WAIT).untilAsserted(() ->
            assertThat(a.getChildren().forPath("/look-once/held")).containsExactly(held.name()));
        holder.release(held).get();
    }

    @Test
    void emptyMarkerWithSessionProtectionNamesNodesLikeTheZooKeeperRecipes(BatonClient a, BatonClient b) throws Exception {
        Contention first = Contention.of(a, "/look-once/x", "", ContentionRule.mutex())
            .withMarkers(Set.of("", "-")).withSessionProtection();
        Contention second = Contention.of(b, "/look-once/x", "", ContentionRule.mutex())
            .withMarkers(Set.of("", "-")).withSessionProtection();

        Ticket one = first.acquireBlocking(NONE, WAIT);
        var two = second.acquire(NONE, WAIT);
        await().atMost(WAIT).until(() -> first.contenders().get().size() == 2);

        assertThat(one.name()).matches("x-" + a.sessionId() + "-\\d{10}");
        assertThat(first.contenders().get()).element(1).asString().matches("x-" + b.sessionId() + "-\\d{10}");
        assertThat(two).isNotDone();
        first.release(one).get();
        assertThat(two.get().fencingToken()).isGreaterThan(one.fencingToken());
        second.release(two.get()).get();
    }
}

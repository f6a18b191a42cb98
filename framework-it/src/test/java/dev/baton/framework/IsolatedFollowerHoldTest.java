package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.Ticket;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.PartitionStyle;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A hold under STANDARD on a client attached to a follower that a partition cuts off from the
 * other servers. The follower keeps answering the client for syncLimit ticks (3 s), longer than
 * the 2 s session the leader expires meanwhile; the hold must end before the next waiter, on the
 * majority's side, is granted.
 */
@EnsembleTest(nodes = 3, peerProxies = true)
class IsolatedFollowerHoldTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void aStandardHoldOnACutOffFollowerEndsBeforeTheNextWaiterIsGranted(BatonClient operator) throws Exception {
        int follower = IntStream.rangeClosed(1, ensemble.size()).filter(id -> id != ensemble.leaderId()).findFirst().orElseThrow();
        String majority = IntStream.rangeClosed(1, ensemble.size()).filter(id -> id != follower)
            .mapToObj(ensemble::connectString).collect(Collectors.joining(","));
        String dir = "/isolated-follower-hold";
        try (BatonClient cutOff = TestClients.started(ensemble.connectString(follower), Duration.ofSeconds(2));
             BatonClient next = TestClients.started(majority, Duration.ofSeconds(10))) {
            Ticket held = Contention.of(cutOff, dir, "lock-", ContentionRule.mutex()).acquireBlocking(new byte[0], WAIT);
            Holding holding = Holding.monitor(cutOff, held, ErrorPolicy.STANDARD);
            AtomicLong lostAt = new AtomicLong();
            holding.onLost(() -> lostAt.set(System.nanoTime()));
            CompletableFuture<Ticket> waiting = Contention.of(next, dir, "lock-", ContentionRule.mutex()).acquire(new byte[0], WAIT);
            await().atMost(WAIT).until(() -> operator.getChildren().forPath(dir).size() == 2);

            ensemble.isolate(follower, PartitionStyle.SILENT);
            Ticket granted = waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            long grantedAt = System.nanoTime();
            boolean stillValid = holding.isValid();

            assertThat(granted).as("the next waiter got the lock once the leader expired the holder's session").isNotNull();
            assertThat(stillValid).as("the cut-off holder still trusted its hold when the next waiter was granted").isFalse();
            assertThat(lostAt.get()).as("the loss was told before the grant").isNotZero().isLessThan(grantedAt);
            assertThat(holding.lossReason()).hasValueSatisfying(r -> assertThat(r).contains("confirmed by the ensemble's leader"));

            // heal before the clients close: the cut-off one's close would wait for a server
            ensemble.healPartitions();
            await().atMost(WAIT).until(ensemble::inSync);
            await().atMost(WAIT).until(() -> cutOff.connectionState().isConnected());
        } finally {
            ensemble.healPartitions();
        }
    }
}

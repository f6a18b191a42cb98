package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.PartitionStyle;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A leader whose client is attached to a follower that a partition cuts off from the other
 * servers. The follower notices only after {@code syncLimit} ticks (3 s here) and answers the
 * client's pings and reads meanwhile, while the majority expires the leader's 2 s session and
 * elects the next leader. Under CONNECTION and LEASE the old leader must have stepped down before
 * that: its lease runs on round trips the ensemble's leader confirmed, not on the follower's
 * replies.
 */
@EnsembleTest(nodes = 3, peerProxies = true)
class IsolatedFollowerLeadershipTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration SHORT_SESSION = Duration.ofSeconds(2);

    EmbeddedEnsemble ensemble;

    @AfterEach
    void heal() {
        ensemble.healPartitions();
        await().atMost(WAIT).until(ensemble::inSync);
    }

    @ParameterizedTest
    @EnumSource(value = LeadershipPolicy.class, names = {"CONNECTION", "LEASE"})
    void aLeaderOnAnIsolatedFollowerStepsDownBeforeTheMajorityElectsAnother(LeadershipPolicy policy, BatonClient operator)
        throws Exception {
        int follower = IntStream.rangeClosed(1, ensemble.size()).filter(id -> id != ensemble.leaderId()).findFirst().orElseThrow();
        String majority = IntStream.rangeClosed(1, ensemble.size()).filter(id -> id != follower)
            .mapToObj(ensemble::connectString).collect(Collectors.joining(","));
        try (Fleet fleet = new Fleet(ensemble, "isolated-follower-" + policy)) {
            Fleet.Member cutOff = fleet.addOn("cut-off", policy, SHORT_SESSION, ensemble.connectString(follower));
            Fleet.Member other = fleet.addOn("other", policy, Duration.ofSeconds(10), majority);
            List<String> stillLeading = new CopyOnWriteArrayList<>();
            cutOff.start();
            assertThat(fleet.awaitOneLeader()).isSameAs(cutOff);
            other.start().addListener(LeaderLatchListener.of(token -> {
                if (cutOff.leads()) {
                    stillLeading.add(cutOff.id);
                }
            }, () -> { }));
            fleet.awaitAllInLine(operator);

            ensemble.isolate(follower, PartitionStyle.SILENT);
            assertThat(fleet.awaitOneLeaderOtherThan(cutOff)).isSameAs(other);

            assertThat(stillLeading).as("the cut-off leader still claimed leadership when the next was elected").isEmpty();
            fleet.history.check().assertNeverTwoLeaders();

            // heal before the fleet closes: a latch on a client without a server waits to delete its node
            heal();
            await().atMost(WAIT).until(() -> cutOff.client.connectionState().isConnected());
        }
    }
}

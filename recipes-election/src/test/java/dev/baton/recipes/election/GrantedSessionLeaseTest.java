package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The servers grant 3 s to participants that ask for 30 s. A LEASE leader that is cut off must
 * step down within what the servers granted — before they expire its session and elect another —
 * not within what it asked for.
 */
@EnsembleTest(maxSessionTimeoutMillis = 3_000)
class GrantedSessionLeaseTest {
    private static final Duration ASKED = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void aCutOffLeaseLeaderStepsDownBeforeTheNextIsElected(BatonClient operator) throws Exception {
        try (Fleet fleet = new Fleet(ensemble, "granted-lease")) {
            Fleet.Member leader = fleet.addBehindProxy("leader", LeadershipPolicy.LEASE, ASKED, 1);
            Fleet.Member other = fleet.add("other", LeadershipPolicy.LEASE, ASKED);
            assertThat(leader.client.negotiatedSessionTimeout()).as("granted").isEqualTo(Duration.ofSeconds(3));
            List<String> leadingAtHandOver = new CopyOnWriteArrayList<>();
            leader.start();
            fleet.awaitOneLeader();
            other.start().addListener(LeaderLatchListener.of(token -> {
                if (leader.leads()) {
                    leadingAtHandOver.add(leader.id);
                }
            }, () -> { }));
            fleet.awaitAllInLine(operator);

            leader.proxy.cut();
            assertThat(fleet.awaitOneLeaderOtherThan(leader)).isSameAs(other);
            assertThat(leadingAtHandOver).as("the cut-off leader still led when the next one was elected").isEmpty();
            fleet.history.check().assertNeverTwoLeaders();
        }
    }
}

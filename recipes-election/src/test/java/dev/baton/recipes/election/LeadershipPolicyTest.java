package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.ConnectionState;
import dev.baton.framework.ErrorPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeadershipPolicyTest {
    @Test
    void defaultPolicyFollowsTheClientsErrorPolicy() {
        assertThat(LeadershipPolicy.of(ErrorPolicy.STANDARD)).isEqualTo(LeadershipPolicy.CONNECTION);
        assertThat(LeadershipPolicy.of(ErrorPolicy.SESSION_ONLY)).isEqualTo(LeadershipPolicy.SESSION);
    }

    @Test
    void onlyConnectionStepsDownOnSuspendedAndEveryPolicyOnLost() {
        for (LeadershipPolicy policy : LeadershipPolicy.values()) {
            assertThat(policy.stepsDownOn(ConnectionState.LOST)).as(policy + " on LOST").isTrue();
            assertThat(policy.stepsDownOn(ConnectionState.RECONNECTED)).isFalse();
            assertThat(policy.stepsDownOn(ConnectionState.CONNECTED)).isFalse();
            assertThat(policy.stepsDownOn(ConnectionState.READ_ONLY)).as(policy + ": READ_ONLY counts as SUSPENDED")
                .isEqualTo(policy.stepsDownOn(ConnectionState.SUSPENDED));
        }
        assertThat(LeadershipPolicy.CONNECTION.stepsDownOn(ConnectionState.SUSPENDED)).isTrue();
        assertThat(LeadershipPolicy.SESSION.stepsDownOn(ConnectionState.SUSPENDED)).isFalse();
        assertThat(LeadershipPolicy.LEASE.stepsDownOn(ConnectionState.SUSPENDED)).as("LEASE waits for its deadline").isFalse();
    }

    @Test
    void defaultLeaseMarginIsATenthOfTheSessionTimeoutButNotTooSmall() {
        assertThat(LeadershipPolicy.defaultLeaseMargin(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(3));
        assertThat(LeadershipPolicy.defaultLeaseMargin(Duration.ofSeconds(2))).isEqualTo(Duration.ofMillis(200));
        assertThat(LeadershipPolicy.defaultLeaseMargin(Duration.ofMillis(300))).isEqualTo(Duration.ofMillis(50));
    }
}

package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SemaphoreRuleTest {
    private static final String MINE = "_c_9-lease-0000000007";

    @Test
    void holdsWhileTheLeasesFitIncludingMine() {
        assertThat(SemaphoreRule.decide(List.of("_c_1-lease-0000000001", MINE), MINE, 2)).isEqualTo(SemaphoreRule.Verdict.HOLD);
        assertThat(SemaphoreRule.decide(List.of(MINE), MINE, 1)).isEqualTo(SemaphoreRule.Verdict.HOLD);
    }

    @Test
    void waitsWhenThereAreMoreLeasesThanAllowed() {
        assertThat(SemaphoreRule.decide(List.of("_c_1-lease-0000000001", "_c_2-lease-0000000002", MINE), MINE, 2))
            .isEqualTo(SemaphoreRule.Verdict.WAIT);
    }

    @Test
    void strayNodesCountAsLeasesSoTheSemaphoreOnlyGetsStricter() {
        assertThat(SemaphoreRule.decide(List.of("operator-note", MINE), MINE, 1)).isEqualTo(SemaphoreRule.Verdict.WAIT);
    }

    @Test
    void myNodeMissingMeansStartOver() {
        assertThat(SemaphoreRule.decide(List.of("_c_1-lease-0000000001"), MINE, 5)).isEqualTo(SemaphoreRule.Verdict.MISSING);
        assertThat(SemaphoreRule.decide(List.of(), MINE, 5)).isEqualTo(SemaphoreRule.Verdict.MISSING);
    }
}

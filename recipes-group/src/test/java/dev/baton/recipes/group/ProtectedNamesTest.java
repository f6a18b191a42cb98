package dev.baton.recipes.group;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProtectedNamesTest {
    @Test
    void theProtectionPrefixIsStrippedAndNothingElse() {
        assertThat(ProtectedNames.withoutProtection("_c_3f2a9c1e-0b7d-4c1a-9a51-2b6f0e8d1c44-metrics0000000001"))
            .isEqualTo("metrics0000000001");
        assertThat(ProtectedNames.withoutProtection("_c_3f2a9c1e-0b7d-4c1a-9a51-2b6f0e8d1c44-my-metrics-0000000012"))
            .as("a prefix with dashes of its own keeps them").isEqualTo("my-metrics-0000000012");
        assertThat(ProtectedNames.withoutProtection("metrics0000000001")).as("an unprotected name").isEqualTo("metrics0000000001");
        assertThat(ProtectedNames.withoutProtection("_c_not-a-uuid-at-all-metrics0000000001"))
            .as("only a real UUID is protection").isEqualTo("_c_not-a-uuid-at-all-metrics0000000001");
    }

    @Test
    void theSequenceIsTheLastTenDigits() {
        assertThat(ProtectedNames.sequence("metrics0000000042")).isEqualTo(42);
        assertThat(ProtectedNames.sequence("v20000000007")).as("digits in the prefix do not count").isEqualTo(7);
        assertThat(ProtectedNames.sequence("0000000000")).isZero();
        assertThat(ProtectedNames.sequence("metrics")).isEqualTo(-1);
        assertThat(ProtectedNames.sequence("metrics000000001x")).isEqualTo(-1);
        assertThat(ProtectedNames.sequence("eu")).isEqualTo(-1);
    }
}

package dev.baton.framework.contention;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ContendersTest {
    private static final Set<String> SESSION_NAMED = Set.of("", "-");

    @Test
    void emptyMarkerNeverMatchesSoSessionNamedNodesSortByDigitsAfterLastDash() {
        List<String> children = List.of("x-72057594037927937-0000000012", "x-144115188075855873-0000000003",
            "x-72057594037927937-0000000010", "not-a-contender");

        assertThat(Contenders.inOrder(children, SESSION_NAMED)).containsExactly(
            "x-144115188075855873-0000000003", "x-72057594037927937-0000000010", "x-72057594037927937-0000000012");
        assertThat(Contenders.sequence("x-72057594037927937-0000000012", SESSION_NAMED)).isEqualTo(12);
        assertThat(Contenders.markerOf("x-1-0000000012", SESSION_NAMED)).isEqualTo("-");
    }

    @Test
    void anEmptyMarkerAloneFindsNothing() {
        assertThat(Contenders.inOrder(List.of("x-1-0000000001"), Set.of(""))).isEmpty();
    }

    @Test
    void protectionPrefixDoesNotDisturbTheOrder() {
        List<String> children = List.of("_c_ffff-lock-0000000002", "_c_0000-lock-0000000009", "_c_aaaa-lock-0000000001");

        assertThat(Contenders.inOrder(children, Set.of("lock-"))).containsExactly(
            "_c_aaaa-lock-0000000001", "_c_ffff-lock-0000000002", "_c_0000-lock-0000000009");
    }
}

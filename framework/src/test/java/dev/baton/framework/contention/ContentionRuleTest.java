package dev.baton.framework.contention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pure parts of the contention engine: ordering and the mutex rule, without a server. */
class ContentionRuleTest {
    private static final Set<String> LOCK = Set.of("lock-");

    @Test
    void contendersAreOrderedBySequenceNotByTheirRandomProtectionPrefix() {
        List<String> children = List.of(
            "_c_ffffffff-0000-0000-0000-000000000000-lock-0000000002",
            "_c_00000000-0000-0000-0000-000000000000-lock-0000000010",
            "_c_88888888-0000-0000-0000-000000000000-lock-0000000001");
        assertThat(Contenders.inOrder(children, LOCK)).containsExactly(
            "_c_88888888-0000-0000-0000-000000000000-lock-0000000001",
            "_c_ffffffff-0000-0000-0000-000000000000-lock-0000000002",
            "_c_00000000-0000-0000-0000-000000000000-lock-0000000010");
    }

    @Test
    void namesWithoutTheMarkerOrWithoutASequenceAreNotContenders() {
        List<String> children = List.of("leases", "locks", "lock-", "lock-abc", "x-lock-0000000003", "_c_1-latch-0000000001");
        assertThat(Contenders.inOrder(children, LOCK)).containsExactly("x-lock-0000000003");
    }

    @Test
    void severalMarkersShareOneLine() {
        Set<String> rw = Set.of("__READ__", "__WRIT__");
        List<String> children = List.of("_c_a-__WRIT__0000000003", "_c_b-__READ__0000000001", "_c_c-__READ__0000000002");
        assertThat(Contenders.inOrder(children, rw)).containsExactly("_c_b-__READ__0000000001", "_c_c-__READ__0000000002",
            "_c_a-__WRIT__0000000003");
        assertThat(Contenders.sequence("_c_a-__WRIT__0000000003", rw)).isEqualTo(3);
    }

    @Test
    void aSequenceCounterThatWrappedNegativeStillSorts() {
        assertThat(Contenders.sequence("lock--000000005", LOCK)).isEqualTo(-5);
        assertThat(Contenders.inOrder(List.of("lock-0000000001", "lock--000000005"), LOCK))
            .containsExactly("lock--000000005", "lock-0000000001");
    }

    @Test
    void mutexHoldsFirstAndChainsEveryWaiterToItsPredecessor() {
        List<String> line = List.of("a", "b", "c", "d");
        ContentionRule mutex = ContentionRule.mutex();
        assertThat(mutex.decide(line, 0)).isEqualTo(Decision.hold());
        assertThat(mutex.decide(line, 1)).isEqualTo(Decision.waitFor("a", true));
        assertThat(mutex.decide(line, 2)).isEqualTo(Decision.waitFor("b", false));
        assertThat(mutex.decide(line, 3)).isEqualTo(Decision.waitFor("c", false));
    }

    @Test
    void noTwoWaitersWatchTheSameNode() {
        List<String> line = List.of("n0", "n1", "n2", "n3", "n4", "n5");
        ContentionRule mutex = ContentionRule.mutex();
        List<String> watched = java.util.stream.IntStream.range(1, line.size())
            .mapToObj(i -> mutex.decide(line, i).watch()).toList();
        assertThat(watched).doesNotHaveDuplicates();
    }

    @Test
    void aDecisionIsConsistent() {
        assertThatThrownBy(() -> new Decision(true, "x", false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Decision(false, null, false)).isInstanceOf(NullPointerException.class);
    }
}

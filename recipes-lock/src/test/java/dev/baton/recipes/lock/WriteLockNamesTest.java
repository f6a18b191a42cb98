package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.contention.Contenders;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Decision;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ZooKeeper recipe's names {@code x-<sessionId>-<seq>} sort by their last 10 digits, never by session. */
class WriteLockNamesTest {
    @Test
    void sortsBySequenceNotBySessionId() {
        List<String> children = List.of(
            "x-216172782113783809-0000000003",
            "x-72057594037927937-0000000001",
            "x-144115188075855873-0000000002",
            "x-72057594037927937-0000000010");

        assertThat(Contenders.inOrder(children, WriteLock.MARKERS)).containsExactly(
            "x-72057594037927937-0000000001",
            "x-144115188075855873-0000000002",
            "x-216172782113783809-0000000003",
            "x-72057594037927937-0000000010");
    }

    @Test
    void parsesTheLastTenDigitsAsTheSequence() {
        assertThat(Contenders.sequence("x-72057594037927937-0000000042", WriteLock.MARKERS)).isEqualTo(42);
        assertThat(Contenders.sequence("x-1-2147483647", WriteLock.MARKERS)).isEqualTo(2147483647L);
    }

    @Test
    void namesWithoutATrailingSequenceAreNotContenders() {
        assertThat(Contenders.inOrder(List.of("x-1-", "readme", "x-1-0000000001"), WriteLock.MARKERS))
            .containsExactly("x-1-0000000001");
    }

    @Test
    void eachWaiterWatchesOnlyItsPredecessor() {
        List<String> line = Contenders.inOrder(List.of("x-9-0000000002", "x-8-0000000001", "x-7-0000000003"), WriteLock.MARKERS);

        Decision third = ContentionRule.mutex().decide(line, 2);

        assertThat(third.holds()).isFalse();
        assertThat(third.watch()).isEqualTo("x-9-0000000002");
        assertThat(ContentionRule.mutex().decide(line, 0).holds()).isTrue();
    }
}

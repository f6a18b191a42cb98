package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.contention.Contenders;
import dev.baton.framework.contention.Decision;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The read/write lock's decisions, without a server. */
class ReadWriteRulesTest {
    private static String r(int seq) {
        return "_c_" + seq + "aaaa-__READ__" + String.format("%010d", seq);
    }

    private static String w(int seq) {
        return "_c_" + seq + "bbbb-__WRIT__" + String.format("%010d", seq);
    }

    private static Decision decide(List<String> line, String node) {
        int mine = line.indexOf(node);
        return ReadWriteRules.isWriter(node) ? ReadWriteRules.write(line, mine) : ReadWriteRules.read(line, mine);
    }

    @Test
    void readersWithNoWriterAheadAllHold() {
        List<String> line = List.of(r(1), r(2), r(3), w(4));
        assertThat(decide(line, r(1)).holds()).isTrue();
        assertThat(decide(line, r(2)).holds()).isTrue();
        assertThat(decide(line, r(3)).holds()).isTrue();
        assertThat(decide(line, w(4))).isEqualTo(Decision.waitFor(r(3), false));
    }

    @Test
    void aWaitingWriterBlocksEveryReaderThatArrivedAfterIt() {
        List<String> line = List.of(r(1), w(2), r(3), r(4));
        assertThat(decide(line, r(1)).holds()).isTrue();
        assertThat(decide(line, w(2))).as("second behind a reader: its going is the last obstacle")
            .isEqualTo(Decision.waitFor(r(1), true));
        assertThat(decide(line, r(3))).isEqualTo(Decision.waitFor(w(2), true));
        assertThat(decide(line, r(4))).isEqualTo(Decision.waitFor(w(2), true));
    }

    @Test
    void aReaderWatchesTheNearestWriterAheadAndTakesTheHandOffOnlyWhenItIsTheOnlyOne() {
        List<String> line = List.of(w(1), r(2), w(3), r(4), r(5));
        assertThat(decide(line, r(2))).isEqualTo(Decision.waitFor(w(1), true));
        assertThat(decide(line, r(4))).as("w1 is ahead too: list again when w3 goes")
            .isEqualTo(Decision.waitFor(w(3), false));
        assertThat(decide(line, r(5))).isEqualTo(Decision.waitFor(w(3), false));
    }

    @Test
    void aWriterWatchesItsPredecessorAndListsAgainAfterAWriter() {
        List<String> line = List.of(w(1), w(2), r(3), w(4));
        assertThat(decide(line, w(1)).holds()).isTrue();
        assertThat(decide(line, w(2))).as("w1 may downgrade, leaving a read node in its place")
            .isEqualTo(Decision.waitFor(w(1), false));
        assertThat(decide(line, w(4))).isEqualTo(Decision.waitFor(r(3), false));
    }

    @Test
    void aDowngradedReadNodeSortsIntoItsWritersPlaceAndBlocksTheWritersBehind() {
        String downgraded = "_c_ffff-__READ__" + Downgrade.sequenceDigits(w(5));
        List<String> line = Contenders.inOrder(List.of(w(6), r(7), downgraded, w(5)), ReadWriteRules.MARKERS);
        assertThat(line.subList(0, 2)).containsExactlyInAnyOrder(w(5), downgraded);
        assertThat(line.subList(2, 4)).containsExactly(w(6), r(7));
        // the writer releases: the downgraded reader is at the head, the next writer waits for it
        List<String> afterRelease = List.of(downgraded, w(6), r(7));
        assertThat(decide(afterRelease, downgraded).holds()).isTrue();
        assertThat(decide(afterRelease, w(6))).isEqualTo(Decision.waitFor(downgraded, true));
        assertThat(decide(afterRelease, r(7))).isEqualTo(Decision.waitFor(w(6), true));
    }

    @Test
    void twentyReadersBehindTwoWritersAllWatchTheNearerOneAndNoWriterSharesAWatch() {
        List<String> line = new ArrayList<>(List.of(w(1), w(2)));
        for (int i = 3; i < 23; i++) {
            line.add(r(i));
        }
        for (String reader : line.subList(2, 22)) {
            assertThat(decide(line, reader)).as("nobody but w2 watches w1").isEqualTo(Decision.waitFor(w(2), false));
        }
        assertThat(decide(line, w(2)).watch()).isEqualTo(w(1));
    }

    @Test
    void curatorsNodeNamesAreUnderstood() {
        String curatorRead = "_c_2e1d5f2a-5b2b-4d1b-9a07-0c0e9c0f1a11-__READ__0000000007";
        String curatorWrite = "_c_9d0a3c11-5b2b-4d1b-9a07-0c0e9c0f1a11-__WRIT__0000000003";
        assertThat(ReadWriteRules.isWriter(curatorWrite)).isTrue();
        assertThat(ReadWriteRules.isWriter(curatorRead)).isFalse();
        List<String> line = Contenders.inOrder(List.of(curatorRead, curatorWrite, "unrelated"), ReadWriteRules.MARKERS);
        assertThat(line).containsExactly(curatorWrite, curatorRead);
    }

    @Test
    void badIndexIsRefused() {
        assertThatThrownBy(() -> ReadWriteRules.read(List.of(r(1)), 1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("was 1");
        assertThatThrownBy(() -> Downgrade.sequenceDigits(r(1))).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * On random lines: the holders are a prefix of readers or one writer at the head; every waiter
     * watches a node ahead of it; no two writers watch one node; a reader watches a writer with no
     * writer between; and a hand-off is claimed only where nothing else stands in the way.
     */
    @Test
    void randomLinesKeepEveryInvariant() {
        Random random = new Random(7);
        for (int round = 0; round < 2000; round++) {
            List<String> line = new ArrayList<>();
            int size = 1 + random.nextInt(12);
            for (int seq = 1; seq <= size; seq++) {
                line.add(random.nextInt(3) == 0 ? w(seq) : r(seq));
            }
            checkLine(line);
        }
    }

    private static void checkLine(List<String> line) {
        Set<String> watchedByWriters = new HashSet<>();
        boolean blocked = false;
        for (int i = 0; i < line.size(); i++) {
            String node = line.get(i);
            boolean writer = ReadWriteRules.isWriter(node);
            Decision decision = decide(line, node);
            boolean shouldHold = writer ? i == 0 : !blocked;
            assertThat(decision.holds()).as("%s in %s", node, line).isEqualTo(shouldHold);
            if (writer) {
                blocked = true;
            }
            if (decision.holds()) {
                continue;
            }
            int watched = line.indexOf(decision.watch());
            assertThat(watched).as("watches a node ahead: %s in %s", node, line).isBetween(0, i - 1);
            List<String> between = line.subList(watched + 1, i);
            List<String> ahead = new ArrayList<>(line.subList(0, i));
            ahead.remove(watched);
            if (writer) {
                assertThat(watched).isEqualTo(i - 1);
                assertThat(watchedByWriters.add(decision.watch())).as("two writers watch %s", decision.watch()).isTrue();
                assertThat(decision.holdsWhenWatchedGoes()).isEqualTo(i == 1 && !ReadWriteRules.isWriter(decision.watch()));
            } else {
                assertThat(ReadWriteRules.isWriter(decision.watch())).isTrue();
                assertThat(between).noneMatch(ReadWriteRules::isWriter);
                assertThat(decision.holdsWhenWatchedGoes()).isEqualTo(ahead.stream().noneMatch(ReadWriteRules::isWriter));
            }
        }
    }
}

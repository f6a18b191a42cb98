package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.test.ClientProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The process chaos test's judge on hand-made histories (no servers): a paused holder's overlap
 * is excused only when the pause could have ended its session and the hold turned out lost, and
 * the fence checks catch a store that lets a stale write through.
 */
class ProcessHistoryTest {
    private static final Instant T0 = Instant.parse("2026-11-26T12:00:00Z");
    private static final Duration SESSION = Duration.ofSeconds(3);

    private final ProcessHistory history = new ProcessHistory(SESSION);
    private final AtomicReference<Instant> now = new AtomicReference<>(T0);

    private static Instant at(long millis) {
        return T0.plusMillis(millis);
    }

    private void mark(String actor, long millis, String kind, long token) {
        history.record(actor, at(millis), kind, token, "");
    }

    /** {@code actor} stamps a write at {@code millis}; it reaches the store a millisecond later. */
    private boolean write(FencedStore store, String actor, long token, long millis) {
        now.set(at(millis + 1));
        return store.write(actor, token, at(millis));
    }

    /**
     * Worker a holds token 10 and is frozen at 100 ms for {@code pauseMillis}; b takes the lock
     * (token 20) at 3.5 s, writes, and later releases; a wakes, writes once with its old token,
     * then hears of its loss ({@code lossSignalled}) or not, and releases.
     */
    private void pausedHolderWakesAndWrites(FencedStore store, long pauseMillis, boolean lossSignalled) {
        mark("a", 0, ProcessHistory.ACQUIRED, 10);
        write(store, "a", 10, 10);
        mark("a", 100, ClientProcess.PAUSED, 0);
        mark("b", 3_500, ProcessHistory.ACQUIRED, 20);
        write(store, "b", 20, 3_510);
        long woke = 100 + pauseMillis;
        mark("a", woke, ClientProcess.RESUMED, 0);
        write(store, "a", 10, Math.max(woke + 10, 3_520));
        if (lossSignalled) {
            mark("a", Math.max(woke + 20, 3_530), ProcessHistory.LOST, 10);
        }
        mark("a", Math.max(woke + 30, 3_540), ProcessHistory.RELEASED, 10);
        write(store, "b", 20, 6_000);
        mark("b", 6_100, ProcessHistory.RELEASED, 20);
    }

    private static Map<String, List<String>> problems(ProcessHistory.Judgement j) {
        return j.checks();
    }

    @Test
    void aHolderPausedPastItsSessionIsExcusedAndItsStaleWriteIsCountedAndRefused() {
        FencedStore store = FencedStore.on(now::get);
        pausedHolderWakesAndWrites(store, 5_000, true);

        ProcessHistory.Judgement j = history.judge(store, 1);

        assertThat(problems(j)).allSatisfy((check, found) -> assertThat(found).as(check).isEmpty());
        assertThat(j.stale()).isEqualTo(1);
        assertThat(j.refused()).isEqualTo(1);
        assertThat(j.staleAfterPause()).isEqualTo(1);
        assertThat(j.pausedOverlaps()).isEqualTo(1);
    }

    @Test
    void aStoreWithoutAFenceIsCaught() {
        FencedStore store = FencedStore.unfenced(now::get);
        pausedHolderWakesAndWrites(store, 5_000, true);

        ProcessHistory.Judgement j = history.judge(store, 1);

        assertThat(problems(j).get("fenced store"))
            .anyMatch(p -> p.contains("was accepted though the largest token accepted before it was 20"))
            .anyMatch(p -> p.contains("was accepted though a larger token had been accepted at"));
        assertThat(problems(j).get("coverage")).as("no refused write after the pause: the fence was not shown")
            .isNotEmpty();
    }

    @Test
    void aPauseTooShortToEndTheSessionExcusesNothing() {
        FencedStore store = FencedStore.on(now::get);
        pausedHolderWakesAndWrites(store, 1_500, true);

        assertThat(problems(history.judge(store, 1)).get("mutual exclusion"))
            .anyMatch(p -> p.contains("b ACQUIRED") && p.contains("acquired while a held it"));
    }

    @Test
    void aHoldThatWasNeverLostIsNotExcusedByAPause() {
        FencedStore store = FencedStore.on(now::get);
        pausedHolderWakesAndWrites(store, 5_000, false);

        ProcessHistory.Judgement j = history.judge(store, 1);

        assertThat(problems(j).get("mutual exclusion")).anyMatch(p -> p.contains("acquired while a held it"));
        assertThat(problems(j).get("fenced store")).anyMatch(p -> p.contains("was refused, yet its hold"));
    }

    @Test
    void aKilledHolderHoldsUntilItsKillAndNoLonger() {
        FencedStore store = FencedStore.on(now::get);
        mark("a", 0, ProcessHistory.ACQUIRED, 10);
        mark("a", 100, ClientProcess.KILLED, 0);
        mark("b", 3_000, ProcessHistory.ACQUIRED, 20);
        mark("b", 3_100, ProcessHistory.RELEASED, 20);
        mark("c", 3_050, ProcessHistory.ACQUIRED, 30);

        assertThat(problems(history.judge(store, 1)).get("mutual exclusion"))
            .anyMatch(p -> p.contains("c ACQUIRED") && p.contains("acquired while b held it"))
            .noneMatch(p -> p.contains("while a held it"));
    }
}

package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.test.ClientProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
        history.record(actor, at(millis), kind, token);
    }

    /** {@code actor} acquired {@code token} at {@code millis} on session {@code session}. */
    private void acquired(String actor, long millis, long token, long session) {
        history.record(actor, at(millis), ProcessHistory.ACQUIRED, token, "/node-" + token, Long.toString(session));
    }

    /** {@code actor} stamps a write at {@code millis}; it reaches the store a millisecond later. */
    private boolean write(FencedStore store, String actor, long token, long millis) {
        now.set(at(millis + 1));
        return store.write(actor, token, at(millis));
    }

    /** How the woken holder of {@link #pausedHolderWakesAndWrites} learns of its loss. */
    enum Learns { LOSS_SIGNAL, SESSION_LOST_AFTER_RELEASE, NEVER }

    /**
     * Worker a holds token 10 (session 1) and is frozen at 100 ms for {@code pauseMillis}; b takes
     * the lock (token 20) at 3.5 s, writes, and later releases; a wakes, writes once with its old
     * token, and releases, having heard of its loss before, or after (its client reports session 1
     * lost), or never.
     */
    private void pausedHolderWakesAndWrites(FencedStore store, long pauseMillis, Learns learns) {
        acquired("a", 0, 10, 1);
        write(store, "a", 10, 10);
        mark("a", 100, ClientProcess.PAUSED, 0);
        acquired("b", 3_500, 20, 2);
        write(store, "b", 20, 3_510);
        long woke = 100 + pauseMillis;
        mark("a", woke, ClientProcess.RESUMED, 0);
        write(store, "a", 10, Math.max(woke + 10, 3_520));
        if (learns == Learns.LOSS_SIGNAL) {
            mark("a", Math.max(woke + 20, 3_530), ProcessHistory.LOST, 10);
        }
        mark("a", Math.max(woke + 30, 3_540), ProcessHistory.RELEASED, 10);
        if (learns == Learns.SESSION_LOST_AFTER_RELEASE) {
            mark("a", Math.max(woke + 40, 3_550), MutexWorker.SESSION_LOST, 1);
        }
        write(store, "b", 20, 6_000);
        mark("b", 6_100, ProcessHistory.RELEASED, 20);
    }

    private static Map<String, List<String>> problems(ProcessHistory.Judgement j) {
        return j.checks();
    }

    /**
     * Excused whether the woken holder heard of its loss before its release, or only after it
     * (it may give the lock back before its client notices anything; its client's "session lost"
     * comes later).
     */
    @ParameterizedTest
    @EnumSource(value = Learns.class, names = {"LOSS_SIGNAL", "SESSION_LOST_AFTER_RELEASE"})
    void aHolderPausedPastItsSessionIsExcusedAndItsStaleWriteIsCountedAndRefused(Learns learns) {
        FencedStore store = FencedStore.on(now::get);
        pausedHolderWakesAndWrites(store, 5_000, learns);

        ProcessHistory.Judgement j = history.judge(store, 1);

        assertThat(problems(j)).allSatisfy((check, found) -> assertThat(found).as(check).isEmpty());
        assertThat(j.stale()).isEqualTo(1);
        assertThat(j.refused()).isEqualTo(1);
        assertThat(j.staleAfterPause()).isEqualTo(1);
        assertThat(j.pausedOverlaps()).isEqualTo(1);
    }

    @Test
    void anotherSessionsLossExcusesNothing() {
        FencedStore store = FencedStore.on(now::get);
        pausedHolderWakesAndWrites(store, 5_000, Learns.NEVER);
        mark("a", 7_000, MutexWorker.SESSION_LOST, 5);

        assertThat(problems(history.judge(store, 1)).get("mutual exclusion")).anyMatch(p -> p.contains("acquired while a held it"));
    }

    @Test
    void aStoreWithoutAFenceIsCaught() {
        FencedStore store = FencedStore.unfenced(now::get);
        pausedHolderWakesAndWrites(store, 5_000, Learns.LOSS_SIGNAL);

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
        pausedHolderWakesAndWrites(store, 1_500, Learns.LOSS_SIGNAL);

        assertThat(problems(history.judge(store, 1)).get("mutual exclusion"))
            .anyMatch(p -> p.contains("b ACQUIRED") && p.contains("acquired while a held it"));
    }

    @Test
    void aHoldThatWasNeverLostIsNotExcusedByAPause() {
        FencedStore store = FencedStore.on(now::get);
        pausedHolderWakesAndWrites(store, 5_000, Learns.NEVER);

        ProcessHistory.Judgement j = history.judge(store, 1);

        assertThat(problems(j).get("mutual exclusion")).anyMatch(p -> p.contains("acquired while a held it"));
        assertThat(problems(j).get("fenced store")).anyMatch(p -> p.contains("was refused, yet its hold"));
    }

    @Test
    void aKilledHolderHoldsUntilItsKillAndNoLonger() {
        FencedStore store = FencedStore.on(now::get);
        acquired("a", 0, 10, 1);
        mark("a", 100, ClientProcess.KILLED, 0);
        acquired("b", 3_000, 20, 2);
        mark("b", 3_100, ProcessHistory.RELEASED, 20);
        acquired("c", 3_050, 30, 3);

        assertThat(problems(history.judge(store, 1)).get("mutual exclusion"))
            .anyMatch(p -> p.contains("c ACQUIRED") && p.contains("acquired while b held it"))
            .noneMatch(p -> p.contains("while a held it"));
    }
}

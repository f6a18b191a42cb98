package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.test.ClientProcess;
import dev.baton.test.history.BoundedExclusion;
import dev.baton.test.history.ServerTruth;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The process chaos test's judge on hand-made histories and a written-down server truth (no
 * servers): a holder must stop believing within the bound of the servers deleting its node — of
 * its resume, if it was paused — by its recipe's own loss signal or its release; a canary whose
 * loss signal never comes is caught; a refusal of a holder the servers still kept is caught; and
 * the store checks catch a store that lets a stale write through.
 */
class ProcessHistoryTest {
    private static final Instant T0 = Instant.parse("2026-11-26T12:00:00Z");
    /** Where T0 falls on the truth's nanoTime line (away from 0, which the truth reads as "unknown"). */
    private static final long ORIGIN = 1_000_000_000_000L;

    private final ProcessHistory history = new ProcessHistory(T0, ORIGIN);
    private final List<ServerTruth.Node> nodes = new ArrayList<>();
    private final AtomicReference<Instant> now = new AtomicReference<>(T0);

    private static Instant at(long millis) {
        return T0.plusMillis(millis);
    }

    private static long nanos(long millis) {
        return ORIGIN + millis * 1_000_000;
    }

    private void mark(String actor, long millis, String kind, long token) {
        history.record(actor, at(millis), kind, token);
    }

    /** {@code actor} acquired {@code token} (node {@code /node-<token>}) at {@code millis}. */
    private void acquired(String actor, long millis, long token) {
        history.record(actor, at(millis), ProcessHistory.ACQUIRED, token, "/node-" + token, "1");
    }

    /** The servers deleted {@code token}'s node at {@code millis} (negative: it was never deleted). */
    private void deleted(long token, long millis) {
        boolean gone = millis >= 0;
        nodes.add(new ServerTruth.Node("/node-" + token, token, nanos(0), gone ? token + 1 : 0, gone ? nanos(millis) : 0, true, 0,
            null));
    }

    /** {@code actor} stamps a write at {@code millis}; it reaches the store a millisecond later. */
    private boolean write(FencedStore store, String actor, long token, long millis) {
        now.set(at(millis + 1));
        return store.write(actor, token, at(millis));
    }

    private ProcessHistory.Judgement judge(FencedStore store) {
        return history.judge(store, ServerTruth.of(nodes), LockChaosTest.standard(1), 1);
    }

    private static Map<String, List<String>> problems(ProcessHistory.Judgement j) {
        return j.checks();
    }

    private static List<String> lossCheck(ProcessHistory.Judgement j) {
        return j.checks().get("loss signalled within 500 ms of the servers' end");
    }

    /** How the woken holder of {@link #pausedHolderWakesAndWrites} stops believing. */
    enum Stops { LOSS_SIGNAL, INVALID, RELEASE, NEVER_UNTIL_ITS_BATCH_ENDS }

    /**
     * Worker a holds token 10 and is frozen at 100 ms for {@code pauseMillis}; the servers delete
     * its node at {@code deletedMillis} (negative: not before a's own release); b takes the lock
     * (token 20) at 3.5 s and writes; a wakes, writes once with its old token, and stops believing
     * 30 ms later by a loss signal (and writes once more, 600 ms after, as a fenced writer does),
     * or by {@code isValid()}, or releases 40 ms after that write — or goes on writing its batch
     * and releases 1.5 s after it; b releases at 8 s.
     */
    private void pausedHolderWakesAndWrites(FencedStore store, long pauseMillis, long deletedMillis, Stops stops) {
        acquired("a", 0, 10);
        write(store, "a", 10, 10);
        mark("a", 100, ClientProcess.PAUSED, 0);
        acquired("b", 3_500, 20);
        write(store, "b", 20, 3_510);
        long woke = 100 + pauseMillis;
        mark("a", woke, ClientProcess.RESUMED, 0);
        long wrote = Math.max(woke + 10, 3_520);
        write(store, "a", 10, wrote);
        long released = wrote + 40;
        switch (stops) {
            case LOSS_SIGNAL -> {
                // a fenced writer writes on whatever its loss signal said: refused
                mark("a", wrote + 30, ProcessHistory.LOST, 10);
                write(store, "a", 10, wrote + 600);
                released = wrote + 640;
            }
            case INVALID -> mark("a", wrote + 30, ProcessHistory.INVALID, 10);
            case RELEASE -> { }
            case NEVER_UNTIL_ITS_BATCH_ENDS -> {
                write(store, "a", 10, wrote + 1_000);
                released = wrote + 1_500;
            }
        }
        mark("a", released, ProcessHistory.RELEASED, 10);
        deleted(10, deletedMillis < 0 ? released + 10 : deletedMillis);
        write(store, "b", 20, 7_500);
        mark("b", 8_000, ProcessHistory.RELEASED, 20);
        deleted(20, 8_010);
    }

    /**
     * A holder frozen past its session is excused, whatever ends its belief within the bound of its
     * resume (the loss callback, {@code isValid()} found false, or a release before its client
     * noticed anything), and its stale write counts as the fence's work: refused.
     */
    @ParameterizedTest
    @EnumSource(value = Stops.class, names = {"LOSS_SIGNAL", "INVALID", "RELEASE"})
    void aHolderPausedPastItsSessionIsExcusedFromItsResumeAndItsStaleWriteIsRefused(Stops stops) {
        FencedStore store = FencedStore.on(now::get);
        pausedHolderWakesAndWrites(store, 5_000, 3_200, stops);

        ProcessHistory.Judgement j = judge(store);

        assertThat(problems(j)).allSatisfy((check, found) -> {
            if (!check.equals("coverage")) {
                assertThat(found).as(check).isEmpty();
            }
        });
        // only the writer that wrote on past the bound after its resume shows a missing signal could be told
        assertThat(problems(j).get("coverage")).as("coverage").hasSize(stops == Stops.LOSS_SIGNAL ? 0 : 1);
        long refused = stops == Stops.LOSS_SIGNAL ? 2 : 1;
        assertThat(j.refused()).isEqualTo(refused);
        assertThat(j.refusedWhileHeld()).isZero();
        assertThat(j.staleAfterPause()).isEqualTo(refused);
        assertThat(j.pausedOverlaps()).isEqualTo(1);
        assertThat(j.latestSignalMillis()).as("belief after the resume, not after the deletion").isLessThan(100);
    }

    /** The paused holder's loss signal must still come within the bound of its resume. */
    @Test
    void aWokenHolderWhoseLossIsNeverSignalledIsCaught() {
        FencedStore store = FencedStore.on(now::get);
        pausedHolderWakesAndWrites(store, 5_000, 3_200, Stops.NEVER_UNTIL_ITS_BATCH_ENDS);

        ProcessHistory.Judgement j = judge(store);

        assertThat(lossCheck(j)).singleElement().asString()
            .contains("a token 10", "went on believing it held for at least 3410 ms", "1900 ms of it paused, so 1510 ms after it was resumed");
        assertThat(problems(j).get("STANDARD exclusion")).anyMatch(p -> p.contains("after that deletion"));
    }

    /**
     * The canary of finding 5: a holder whose recipe never signals loss. The nemesis ends its
     * session while it holds (the servers delete its node at 1.1 s), b takes the lock at 1.15 s,
     * and a holds on until its batch is done at 2.5 s — its release then finds the hold lost, and
     * its client noticed the session's end long before; neither is the recipe's signal. The old
     * judge excused it (it cut the hold back to the start of the fault); this one must not.
     */
    @Test
    void aHolderWhoseLossIsNeverSignalledIsCaught() {
        FencedStore store = FencedStore.on(now::get);
        acquired("a", 0, 10);
        write(store, "a", 10, 10);
        deleted(10, 1_100);
        acquired("b", 1_150, 20);
        write(store, "b", 20, 1_160);
        write(store, "a", 10, 1_300);
        mark("a", 2_500, ProcessHistory.RELEASED, 10);
        mark("a", 2_510, ProcessHistory.RELEASE_FOUND_LOST, 10);
        mark("b", 3_000, ProcessHistory.RELEASED, 20);
        deleted(20, 3_010);

        ProcessHistory.Judgement j = judge(store);
        System.out.println("[canary, new rule] " + j.checks());

        assertThat(lossCheck(j)).singleElement().asString()
            .contains("a token 10", "went on believing it held for at least 1400 ms", "until released");
        assertThat(problems(j).get("STANDARD exclusion")).anyMatch(p -> p.contains("believed it held for at least 1400 ms"));
    }

    /** The same holder with a loss signal 150 ms after the servers' deletion passes. */
    @Test
    void aLossSignalWithinTheBoundIsExcused() {
        FencedStore store = FencedStore.on(now::get);
        acquired("a", 0, 10);
        deleted(10, 1_100);
        acquired("b", 1_150, 20);
        mark("a", 1_250, ProcessHistory.LOST, 10);
        mark("a", 2_500, ProcessHistory.RELEASED, 10);
        mark("b", 3_000, ProcessHistory.RELEASED, 20);
        deleted(20, 3_010);

        ProcessHistory.Judgement j = judge(store);

        assertThat(lossCheck(j)).isEmpty();
        assertThat(problems(j).get("STANDARD exclusion")).isEmpty();
        assertThat(j.latestSignalMillis()).isEqualTo(150);
    }

    /**
     * Nobody else takes the lock, yet a holder that believes a second past its node's deletion
     * fails: the loss check does not wait for an overlap.
     */
    @Test
    void aLateLossSignalFailsEvenWithoutAnotherHolder() {
        FencedStore store = FencedStore.on(now::get);
        acquired("a", 0, 10);
        deleted(10, 1_100);
        mark("a", 2_100, ProcessHistory.LOST, 10);

        ProcessHistory.Judgement j = judge(store);

        assertThat(lossCheck(j)).singleElement().asString().contains("at least 1000 ms", "until lost");
        assertThat(problems(j).get("STANDARD exclusion")).isEmpty();
    }

    @Test
    void aStoreWithoutAFenceIsCaught() {
        FencedStore store = FencedStore.unfenced(now::get);
        pausedHolderWakesAndWrites(store, 5_000, 3_200, Stops.LOSS_SIGNAL);

        ProcessHistory.Judgement j = judge(store);

        assertThat(problems(j).get("fenced store"))
            .anyMatch(p -> p.contains("was accepted though the largest token accepted before it was 20"))
            .anyMatch(p -> p.contains("was accepted though a larger token had been accepted at"));
        assertThat(problems(j).get("STANDARD exclusion")).anyMatch(p -> p.contains("and the resource accepted it"));
        assertThat(problems(j).get("coverage")).as("no refused write after the pause: the fence was not shown").isNotEmpty();
    }

    /**
     * A pause the session survived excuses nothing: the servers kept a's node, so b's grant is a
     * double grant, and the store's refusal of a is a refusal of a holder the servers still kept.
     */
    @Test
    void aPauseTheSessionSurvivedExcusesNothing() {
        FencedStore store = FencedStore.on(now::get);
        pausedHolderWakesAndWrites(store, 5_000, -1, Stops.RELEASE);

        ProcessHistory.Judgement j = judge(store);

        assertThat(problems(j).get("STANDARD exclusion")).anyMatch(p -> p.contains("double grant"));
        assertThat(problems(j).get("fenced store"))
            .anyMatch(p -> p.contains("was refused at") && p.contains("while the servers still kept its hold's node /node-10"));
        assertThat(j.refusedWhileHeld()).isEqualTo(1);
    }

    @Test
    void aKilledHolderHoldsUntilItsKillAndNoLonger() {
        FencedStore store = FencedStore.on(now::get);
        acquired("a", 0, 10);
        mark("a", 100, ClientProcess.KILLED, 0);
        deleted(10, 3_000);
        acquired("b", 3_010, 20);
        mark("b", 3_100, ProcessHistory.RELEASED, 20);
        deleted(20, 3_120);
        acquired("c", 3_080, 30);

        ProcessHistory.Judgement j = judge(store);

        assertThat(problems(j).get("STANDARD exclusion"))
            .anyMatch(p -> p.contains("c ACQUIRED") && p.contains("double grant") && p.contains("while b's node"))
            .noneMatch(p -> p.contains("a's node"));
        assertThat(lossCheck(j)).isEmpty();
    }
}

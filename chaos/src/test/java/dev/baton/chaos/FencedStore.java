package dev.baton.chaos;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The resource a lock protects, fenced: it remembers the largest fencing token it has accepted
 * and refuses any write with a smaller one (a holder writes many times with its own token, so an
 * equal token is accepted). It keeps every write it was asked for — who, with which token, when
 * the writer stamped it and in what order it arrived, and what it answered — so a test can judge
 * the fence afterwards instead of trusting its counters.
 *
 * <p>{@link #unfenced} makes a broken one, which accepts everything: the checks of
 * {@link ProcessHistory#judge} must catch it.
 */
final class FencedStore {
    /**
     * One write as the store saw it.
     *
     * @param seq the order of arrival at the store (the store's own, linear order)
     * @param issued when the writer stamped it (its own clock; see {@code ClientProcess} on why
     *     stamps of different JVMs on one machine compare)
     * @param arrived when the store decided it
     */
    record Write(long seq, String actor, long token, Instant issued, Instant arrived, boolean accepted) {
    }

    private final List<Write> log = new ArrayList<>();
    private final boolean fenced;
    private final Supplier<Instant> clock;
    private long highest = Long.MIN_VALUE;

    /** A fenced store on the wall clock. */
    FencedStore() {
        this(true, Instant::now);
    }

    private FencedStore(boolean fenced, Supplier<Instant> clock) {
        this.fenced = fenced;
        this.clock = clock;
    }

    /** A fenced store whose arrival stamps come from {@code clock} (tests of the checks). */
    static FencedStore on(Supplier<Instant> clock) {
        return new FencedStore(true, clock);
    }

    /** A broken store that accepts every write, whatever its token. */
    static FencedStore unfenced(Supplier<Instant> clock) {
        return new FencedStore(false, clock);
    }

    /** Accepts the write unless a larger token has been accepted before; says which. */
    synchronized boolean write(String actor, long token, Instant issued) {
        boolean accepted = !fenced || token >= highest;
        if (accepted) {
            highest = Math.max(highest, token);
        }
        log.add(new Write(log.size(), actor, token, issued, clock.get(), accepted));
        return accepted;
    }

    /** Every write, in the order the store decided them. */
    synchronized List<Write> log() {
        return List.copyOf(log);
    }

    /** Accepted and refused writes per actor, for the report. */
    synchronized Map<String, String> perActor() {
        Map<String, long[]> counts = new TreeMap<>();
        for (Write w : log) {
            counts.computeIfAbsent(w.actor(), a -> new long[2])[w.accepted() ? 0 : 1]++;
        }
        Map<String, String> out = new TreeMap<>();
        counts.forEach((actor, c) -> out.put(actor, c[0] + " accepted/" + c[1] + " refused"));
        return out;
    }
}

package dev.baton.chaos;

import dev.baton.test.ClientProcess;
import dev.baton.test.history.Event;
import dev.baton.test.history.MutualExclusion;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * What happened in the process chaos test, across JVMs: for each actor (a worker in a child JVM
 * or on a thread of the test), its acquisitions (token and node), releases, loss signals and
 * releases that found the hold already lost; the faults that hit it — paused from t1 to t2,
 * killed at t, its session being ended from t1 to t2; and, beside it, the fenced store's log.
 * Everything is stamped with the machine's wall clock (see {@link ClientProcess} on why stamps of
 * different JVMs compare) and judged by those stamps, not by when a report reached this JVM.
 *
 * <p>A hold counts from its acquisition until its release or loss signal — or earlier, from the
 * moment a fault took it, if the hold turned out lost (its loss was signalled, its release found
 * it lost, or its client later reported the session it was granted on lost — a holder that woke
 * from a pause may give the lock back before its client has noticed anything): the start of a
 * pause of the holder's process long enough to end its session (the servers end it while it is
 * frozen, and a frozen process cannot learn it), or the start of the nemesis ending its session.
 * A killed process's hold ends at the kill. The overlap
 * that a paused holder has with the next holder until it wakes and hears is excused that way,
 * and only that way; it is the fence's job, and {@link #judge} checks the fence did it: every
 * write the woken holder made after a newer token reached the store was refused.
 *
 * <p>The shared {@code History} orders events as they are recorded in one JVM, and has no mark for
 * a paused process yet; {@link #holdEvents()} is the one place that turns this record into the
 * events {@link MutualExclusion} judges, so moving to a model with such marks changes only it.
 */
final class ProcessHistory {
    static final String ACQUIRED = "acquired";
    static final String RELEASED = "released";
    static final String LOST = "lost";
    static final String RELEASE_FOUND_LOST = "release-found-lost";
    static final String EXPIRING = "expiring";
    static final String EXPIRED = "expired";
    static final String ERROR = "error";
    /** A worker process's client has connected: the end of its start-up. */
    static final String READY = "ready";

    /**
     * One thing recorded, in order of arrival.
     *
     * @param value the token; the session id for {@link MutexWorker#SESSION_LOST}; else 0
     * @param more what else the worker said: for {@link #ACQUIRED} the node and the session id,
     *     for {@link #ERROR} the exception
     */
    record Mark(long arrival, String actor, Instant time, String kind, long value, List<String> more) {
        String more(int i) {
            return i < more.size() ? more.get(i) : "";
        }
    }

    /** A fault on one actor: its process paused, or its session being ended. */
    record Span(String actor, String kind, Instant from, Instant to) {
    }

    /** One hold, as the record shows it after the run. */
    static final class Hold {
        final String actor;
        final long token;
        final long session;
        final Instant start;
        Instant end;
        String endedBy;
        boolean lost;
        /** The fault that took the hold before its end, if it turned out lost while one was in effect. */
        Span takenBy;

        Hold(String actor, long token, long session, Instant start) {
            this.actor = actor;
            this.token = token;
            this.session = session;
            this.start = start;
        }

        /** Where the hold ends for mutual exclusion: when a fault took it, else its recorded end (null: open). */
        Instant countsUntil() {
            return takenBy == null ? end : later(start, takenBy.from());
        }

        @Override
        public String toString() {
            return actor + " token " + token + " from " + start + " to " + (end == null ? "the end" : end + " (" + endedBy + ")")
                + (takenBy == null ? "" : ", taken by " + takenBy.kind() + " at " + countsUntil());
        }
    }

    /** The counts and checks of a judged run. */
    record Judgement(long holds, long writes, long accepted, long refused, long stale, long staleAfterPause,
                     long staleAfterExpiry, long pausedOverlaps, Map<String, Long> errors, Map<String, List<String>> checks) {
    }

    private final List<Mark> marks = new ArrayList<>();
    private final Duration session;
    private volatile String holder;

    /** @param session the workers' session timeout: a shorter pause cannot have ended a session (see {@link #takenBy}) */
    ProcessHistory(Duration session) {
        this.session = session;
    }

    /** Records a message of a client process (its report, or what the test did to it). */
    void record(ClientProcess.Message m) {
        boolean withValue = switch (m.kind()) {
            case ACQUIRED, RELEASED, LOST, RELEASE_FOUND_LOST, MutexWorker.SESSION_LOST -> true;
            default -> false;
        };
        List<String> more = withValue ? m.fields().subList(1, m.fields().size()) : m.fields();
        record(m.process(), m.time(), m.kind(), withValue ? m.longField(0) : 0, more.toArray(String[]::new));
    }

    /** Records what {@code actor} reported or what was done to it, as {@link MutexWorker.Sink} says it. */
    synchronized void record(String actor, Instant time, String kind, long value, String... more) {
        marks.add(new Mark(marks.size(), actor, time, kind, value, List.of(more)));
        if (kind.equals(ACQUIRED)) {
            holder = actor;
        } else if (actor.equals(holder) && !kind.equals(ERROR)) {
            holder = null;
        }
    }

    /** Who took the mutex last and has not given it up as far as this JVM has heard (null: nobody). */
    String holder() {
        return holder;
    }

    synchronized List<Mark> marks() {
        return List.copyOf(marks);
    }

    long count(String kind) {
        return marks().stream().filter(m -> m.kind().equals(kind)).count();
    }

    /** Every hold, and the problems met rebuilding them, in order of their stamps. */
    private record Rebuilt(List<Hold> holds, List<Span> spans, List<String> problems) {
    }

    private Rebuilt rebuild() {
        List<Mark> sorted = new ArrayList<>(marks());
        sorted.sort(Comparator.comparing(Mark::time).thenComparingLong(Mark::arrival));
        List<Hold> holds = new ArrayList<>();
        List<Span> spans = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, Hold> open = new HashMap<>();
        Map<String, Hold> byToken = new HashMap<>();
        Map<String, Instant> pausedSince = new HashMap<>();
        Map<String, Instant> expiringSince = new HashMap<>();
        Set<String> lostSessions = new HashSet<>();
        for (Mark m : sorted) {
            Hold current = open.get(m.actor());
            switch (m.kind()) {
                case ACQUIRED -> {
                    if (current != null) {
                        problems.add(m.actor() + " acquired token " + m.value() + " at " + m.time() + " while its hold " + current
                            + " had not ended");
                        end(current, m.time(), "superseded", false, open);
                    }
                    Hold hold = new Hold(m.actor(), m.value(), m.more(1).isEmpty() ? 0 : Long.parseLong(m.more(1)), m.time());
                    holds.add(hold);
                    open.put(m.actor(), hold);
                    byToken.put(m.actor() + "/" + m.value(), hold);
                }
                case RELEASED, LOST, RELEASE_FOUND_LOST -> {
                    Hold hold = byToken.get(m.actor() + "/" + m.value());
                    if (hold == null) {
                        problems.add(m.actor() + " reported " + m.kind() + " of token " + m.value() + " it never acquired");
                    } else if (hold == current && !m.kind().equals(RELEASE_FOUND_LOST)) {
                        end(hold, m.time(), m.kind(), m.kind().equals(LOST), open);
                    } else if (!m.kind().equals(RELEASED)) {
                        hold.lost = true;  // lost before its release, heard after it
                    }
                }
                case ClientProcess.PAUSED -> pausedSince.put(m.actor(), m.time());
                case ClientProcess.RESUMED -> spans.add(new Span(m.actor(), "paused", pausedSince.remove(m.actor()), m.time()));
                case ClientProcess.KILLED, ClientProcess.EXITED -> {
                    if (current != null) {
                        // the hold ends here, but a kill is no evidence that it was lost before
                        end(current, m.time(), m.kind(), false, open);
                    }
                    Instant paused = pausedSince.remove(m.actor());
                    if (paused != null) {
                        spans.add(new Span(m.actor(), "paused", paused, m.time()));
                    }
                    if (m.kind().equals(ClientProcess.EXITED)) {
                        problems.add(m.actor() + "'s process exited by itself at " + m.time() + " (see its log)");
                    }
                }
                case MutexWorker.SESSION_LOST -> lostSessions.add(m.actor() + "/" + m.value());
                case EXPIRING -> expiringSince.put(m.actor(), m.time());
                case EXPIRED -> spans.add(new Span(m.actor(), "session expired", expiringSince.remove(m.actor()), m.time()));
                default -> {
                    // started, error: nothing to rebuild
                }
            }
        }
        pausedSince.forEach((actor, from) -> problems.add(actor + " was paused at " + from + " and never resumed or killed"));
        for (Hold hold : holds) {
            // a holder may give the lock back before its client notices its session is gone
            // (frozen, it could not): its client's later "session lost" says the hold was lost
            hold.lost |= lostSessions.contains(hold.actor + "/" + hold.session);
            hold.takenBy = takenBy(hold, spans, session);
        }
        return new Rebuilt(holds, spans, problems);
    }

    private static void end(Hold hold, Instant at, String by, boolean lost, Map<String, Hold> open) {
        hold.end = at;
        hold.endedBy = by;
        hold.lost |= lost;
        open.remove(hold.actor);
    }

    /**
     * The earliest fault on the holder that overlapped a hold which turned out lost, and could
     * have ended its session. A pause could only if it lasted two thirds of the session timeout:
     * the client talks to the servers at least every third of it, so a session outlives a
     * shorter freeze.
     */
    private static Span takenBy(Hold hold, List<Span> spans, Duration session) {
        if (!hold.lost) {
            return null;
        }
        Span first = null;
        for (Span s : spans) {
            boolean overlaps = s.actor().equals(hold.actor) && !s.to().isBefore(hold.start)
                && (hold.end == null || !s.from().isAfter(hold.end));
            boolean couldEndSession = !s.kind().equals("paused")
                || Duration.between(s.from(), s.to()).multipliedBy(3).compareTo(session.multipliedBy(2)) >= 0;
            if (overlaps && couldEndSession && (first == null || s.from().isBefore(first.from()))) {
                first = s;
            }
        }
        return first;
    }

    /**
     * The holds as the plain events {@link MutualExclusion} judges: each acquisition at its stamp,
     * and its end where the hold stops counting ({@link Hold#countsUntil()}), in order of time.
     */
    List<Event> holdEvents() {
        return holdEvents(rebuild().holds(), "/chaos/process-mutex");
    }

    private static List<Event> holdEvents(List<Hold> holds, String key) {
        record Timed(Instant time, long order, String actor, Event.Op op, long token) {
        }
        List<Timed> timed = new ArrayList<>();
        for (int i = 0; i < holds.size(); i++) {
            Hold h = holds.get(i);
            timed.add(new Timed(h.start, 2L * i, h.actor, Event.Op.ACQUIRED, h.token));
            Instant until = h.countsUntil();
            if (until != null) {
                timed.add(new Timed(until, 2L * i + 1, h.actor, h.lost ? Event.Op.LOST : Event.Op.RELEASED, 0));
            }
        }
        timed.sort(Comparator.comparing(Timed::time).thenComparingLong(Timed::order));
        List<Event> events = new ArrayList<>();
        for (Timed t : timed) {
            events.add(new Event(events.size(), micros(t.time()) * 1_000, t.actor(), t.op(), key, t.token()));
        }
        return events;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }

    /** Refused writes that a holder made after waking from a pause that took its hold. */
    long staleAfterPause(FencedStore store) {
        return staleAfter(rebuild().holds(), store.log(), "paused");
    }

    private static long staleAfter(List<Hold> holds, List<FencedStore.Write> writes, String fault) {
        Map<String, Hold> byToken = new HashMap<>();
        holds.forEach(h -> byToken.put(h.actor + "/" + h.token, h));
        // a paused holder's writes count from its waking; a session is ended while its holder runs on
        return writes.stream().filter(w -> {
            Hold h = byToken.get(w.actor() + "/" + w.token());
            return !w.accepted() && h != null && h.takenBy != null && h.takenBy.kind().equals(fault)
                && !w.issued().isBefore(fault.equals("paused") ? h.takenBy.to() : h.takenBy.from());
        }).count();
    }

    /**
     * How long each worker JVM took from its start to a connected client ({@link #READY}), for
     * every start and restart.
     */
    List<Duration> startUps() {
        List<Duration> startUps = new ArrayList<>();
        Map<String, Instant> started = new HashMap<>();
        for (Mark m : marks()) {
            if (m.kind().equals(ClientProcess.STARTED)) {
                started.put(m.actor(), m.time());
            } else if (m.kind().equals(READY) && started.containsKey(m.actor())) {
                startUps.add(Duration.between(started.remove(m.actor()), m.time()));
            }
        }
        return startUps;
    }

    /**
     * Judges the run: mutual exclusion with faults taken into account, the fence, and whether the
     * run exercised what it is for ({@code processKills}: KILL_PROCESS faults the nemesis injected).
     */
    Judgement judge(FencedStore store, int processKills) {
        Rebuilt r = rebuild();
        List<FencedStore.Write> writes = store.log();
        Map<String, List<String>> checks = new LinkedHashMap<>();
        checks.put("mutual exclusion", MutualExclusion.check(holdEvents(r.holds(), "/chaos/process-mutex")).violations());
        List<String> fence = new ArrayList<>();
        long stale = checkFence(r.holds(), writes, fence);
        checks.put("fenced store", fence);
        checks.put("history", r.problems());
        long afterPause = staleAfter(r.holds(), writes, "paused");
        long afterExpiry = staleAfter(r.holds(), writes, "session expired");
        long pausedOverlaps = r.holds().stream().filter(h -> h.takenBy != null && h.takenBy.kind().equals("paused")
            && r.holds().stream().anyMatch(o -> o != h && !o.start.isBefore(h.countsUntil())
                && (h.end == null || o.start.isBefore(h.end)))).count();
        List<String> coverage = new ArrayList<>();
        if (afterPause == 0) {
            coverage.add("no worker wrote after waking from a pause past its session: the fence was not put to the test");
        }
        if (processKills == 0) {
            coverage.add("no worker process was killed");
        }
        checks.put("coverage", coverage);
        Map<String, Long> errors = new TreeMap<>();
        marks().stream().filter(m -> m.kind().equals(ERROR)).forEach(m -> errors.merge(m.more(0), 1L, Long::sum));
        long accepted = writes.stream().filter(FencedStore.Write::accepted).count();
        return new Judgement(r.holds().size(), writes.size(), accepted, writes.size() - accepted, stale, afterPause,
            afterExpiry, pausedOverlaps, errors, checks);
    }

    /**
     * Judges the store's answers from its log, not its counters: going through the writes in
     * the order the store decided them, a write is stale when a larger token was accepted before
     * it, and must be refused exactly then (so the accepted tokens never go down); a write stamped
     * after a larger token was accepted must be refused whatever the order of arrival; an
     * accepted write must carry a token its writer was granted; a refused one must come from a
     * hold that was lost. Returns the number of stale writes.
     */
    private static long checkFence(List<Hold> holds, List<FencedStore.Write> writes, List<String> problems) {
        Map<String, Hold> byToken = new HashMap<>();
        holds.forEach(h -> byToken.put(h.actor + "/" + h.token, h));
        NavigableMap<Long, Instant> firstAccepted = new TreeMap<>();
        long highest = Long.MIN_VALUE;
        long stale = 0;
        for (FencedStore.Write w : writes) {
            boolean isStale = w.token() < highest;
            stale += isStale ? 1 : 0;
            if (isStale == w.accepted()) {
                problems.add("write #" + w.seq() + " by " + w.actor() + " with token " + w.token() + " was "
                    + (w.accepted() ? "accepted" : "refused") + " though the largest token accepted before it was " + highest);
            }
            if (w.accepted()) {
                highest = Math.max(highest, w.token());
                firstAccepted.putIfAbsent(w.token(), w.arrived());
            }
            Hold hold = byToken.get(w.actor() + "/" + w.token());
            if (w.accepted() && hold == null) {
                problems.add("write #" + w.seq() + " by " + w.actor() + " was accepted with token " + w.token()
                    + ", which it was never granted");
            }
            if (!w.accepted() && (hold == null || !hold.lost)) {
                problems.add("write #" + w.seq() + " by " + w.actor() + " was refused, yet its hold " + hold + " was never lost");
            }
        }
        for (FencedStore.Write w : writes) {
            Instant newer = firstAccepted.tailMap(w.token(), false).values().stream().min(Comparator.naturalOrder()).orElse(null);
            if (w.accepted() && newer != null && w.issued().isAfter(newer)) {
                problems.add("write #" + w.seq() + " by " + w.actor() + " with token " + w.token() + ", stamped " + w.issued()
                    + ", was accepted though a larger token had been accepted at " + newer);
            }
        }
        return stale;
    }
}

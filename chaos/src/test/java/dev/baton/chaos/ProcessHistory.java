package dev.baton.chaos;

import dev.baton.test.ClientProcess;
import dev.baton.test.history.BoundedExclusion;
import dev.baton.test.history.Event;
import dev.baton.test.history.ServerTruth;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What happened in the process chaos test, across JVMs, and its judge. For each actor (a worker
 * in a child JVM or on a thread of the test) the record holds its acquisitions (token, node,
 * session), its releases, the recipe's loss signals — the grant's
 * {@code onLost} callback ({@link #LOST}) and, for a careful worker, {@code isValid()} found false
 * before a write ({@link #INVALID}) — and what was done to its process: paused from t1 to t2,
 * killed at t. Beside it the fenced store keeps its own log. Everything is stamped with the
 * machine's wall clock (see {@link ClientProcess} on why stamps of different JVMs compare) and
 * judged by those stamps, not by when a report reached this JVM.
 *
 * <p><b>The model is the in-process chaos tests' one.</b> A hold lasts, in its holder's belief,
 * from its acquisition until the first of its release, the recipe's loss signal, or its process's
 * death. Nothing else ends it: not the client's own connection listener, not a release that found
 * the hold gone, not a fault the test injected. What the servers did is taken from
 * {@link ServerTruth} (the servers' transaction logs): when each hold's node was deleted. The
 * judgement has two parts on the holds:
 *
 * <ol>
 *   <li><b>Bounded exclusion</b> ({@link BoundedExclusion}, under the rules given — the STANDARD
 *       policy's 500 ms for the mutex): two holders at once is a double grant unless the servers
 *       had deleted the earlier one's node before the later grant, and then the earlier holder
 *       must have stopped believing within the bound of that deletion.</li>
 *   <li><b>Loss signalled in time</b>, for every hold whether or not anyone else took the lock: if
 *       the servers deleted a hold's node while its holder still believed, the holder must stop
 *       believing (signal the loss, or have released) no later than the bound after the deletion.
 *       <b>Paused processes</b>: time the holder's process spent frozen (SIGSTOP) after the
 *       deletion does not count — the pause is the fault, and nothing in a frozen process can
 *       notice anything — so for a holder frozen when its session ended, the bound runs from the
 *       moment it was resumed. What it wrote meanwhile with its stale token is the fence's job,
 *       and the fence must show it refused.</li>
 * </ol>
 *
 * <p>A violation is reported only when the bound is exceeded counted from the latest moment the
 * deletion can have happened (the truth knows it between a floor and a ceiling); a lateness that
 * the two bounds put on both sides of the rule is counted as unjudged. Wall-clock stamps are put
 * on this JVM's {@link System#nanoTime()} line (the truth's) by one pair of readings of both
 * clocks; the two drift apart only by the clock's slew, well under a millisecond a minute in
 * practice.
 *
 * <p><b>The fence</b> is judged from the store's log. Two checks are about Baton: every write the
 * store refused came from a hold whose node the servers had already deleted when the write
 * arrived (a refusal of a holder the servers still kept means the lock handed out a newer token
 * while the old hold lived, or handed out tokens out of order), and every accepted write carries a
 * token its writer was granted. The rest check the store itself — a write is refused exactly when a
 * larger token was accepted before it — and exist to catch a broken store in this class's tests
 * ({@link FencedStore#unfenced}); on the real store they hold by construction.
 */
final class ProcessHistory {
    static final String ACQUIRED = "acquired";
    static final String RELEASED = "released";
    /** The grant's loss callback fired. */
    static final String LOST = "lost";
    /** A careful worker found {@code isValid()} false before a write. */
    static final String INVALID = "invalid";
    static final String RELEASE_FOUND_LOST = "release-found-lost";
    static final String ERROR = "error";
    /** A worker process's client has connected: the end of its start-up. */
    static final String READY = "ready";
    private static final String KEY = "process-mutex";

    /**
     * One thing recorded, in order of arrival.
     *
     * @param value the token, else 0
     * @param more what else the worker said: for {@link #ACQUIRED} the node and the session id;
     *     for {@link #ERROR} the exception
     */
    record Mark(long arrival, String actor, Instant time, String kind, long value, List<String> more) {
        String more(int i) {
            return i < more.size() ? more.get(i) : "";
        }
    }

    /** A process pause of one actor. */
    record Pause(String actor, Instant from, Instant to) {
    }

    /** One hold, as the record shows it after the run. */
    static final class Hold {
        final String actor;
        final long token;
        final String node;
        final Instant start;
        Instant end;
        String endedBy;

        Hold(String actor, long token, String node, Instant start) {
            this.actor = actor;
            this.token = token;
            this.node = node;
            this.start = start;
        }

        @Override
        public String toString() {
            return actor + " token " + token + " (" + node + ") from " + start + " to "
                + (end == null ? "the end" : end + " (" + endedBy + ")");
        }
    }

    /**
     * The counts and checks of a judged run.
     *
     * @param refusedWhileHeld refused writes whose hold's node the servers still kept (a violation)
     * @param staleAfterPause refused writes a holder made after waking from a pause during its hold
     * @param pausedOverlaps overlaps with a newer holder excused as a process pause
     * @param latestSignalMillis the longest a holder believed after the servers deleted its node,
     *     not counting time paused (an upper estimate, from the deletion's floor)
     * @param unjudgedSignals holds whose lateness the bounds on their node's deletion time put on
     *     both sides of the rule
     * @param exclusion the bounded-exclusion checker's summary line
     */
    record Judgement(long holds, long writes, long accepted, long refused, long refusedWhileHeld, long staleAfterPause,
                     int pausedOverlaps, double latestSignalMillis, int unjudgedSignals, String exclusion, Map<String, Long> errors,
                     Map<String, List<String>> checks) {
    }

    private final List<Mark> marks = new ArrayList<>();
    private final Instant wallOrigin;
    private final long nanosOrigin;
    private volatile String holder;
    /** The stamp of {@link #holder}'s acquisition (null: nobody holds). */
    private volatile Instant holderSince;

    /** A history on this machine's clocks. */
    ProcessHistory() {
        long nanos = System.nanoTime();
        this.wallOrigin = Instant.now();
        this.nanosOrigin = nanos;
    }

    /** A history whose wall-clock {@code wallOrigin} is {@code nanosOrigin} on the truth's line (tests). */
    ProcessHistory(Instant wallOrigin, long nanosOrigin) {
        this.wallOrigin = wallOrigin;
        this.nanosOrigin = nanosOrigin;
    }

    /** Records a message of a client process (its report, or what the test did to it). */
    void record(ClientProcess.Message m) {
        boolean withValue = switch (m.kind()) {
            case ACQUIRED, RELEASED, LOST, INVALID, RELEASE_FOUND_LOST -> true;
            default -> false;
        };
        List<String> more = withValue ? m.fields().subList(1, m.fields().size()) : m.fields();
        record(m.process(), m.time(), m.kind(), withValue ? m.longField(0) : 0, more.toArray(String[]::new));
    }

    /** Records what {@code actor} reported or what was done to it, as {@link MutexWorker.Sink} says it. */
    synchronized void record(String actor, Instant time, String kind, long value, String... more) {
        marks.add(new Mark(marks.size(), actor, time, kind, value, List.of(more)));
        if (kind.equals(ACQUIRED)) {
            holderSince = time;
            holder = actor;
        } else if (actor.equals(holder) && !kind.equals(ERROR)) {
            holder = null;
            holderSince = null;
        }
    }

    /**
     * The holder ({@link #holder()}) if its acquisition is stamped at or after {@code since}, else
     * null: a hold that has just begun, with most of its batch of writes ahead of it.
     */
    synchronized String holderAcquiredSince(Instant since) {
        return holder != null && holderSince != null && !holderSince.isBefore(since) ? holder : null;
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

    /** Every hold and pause, the problems met rebuilding them, and the last stamp. */
    private record Rebuilt(List<Hold> holds, List<Pause> pauses, List<String> problems, Instant last) {
        Map<String, Hold> byToken() {
            Map<String, Hold> out = new HashMap<>();
            holds.forEach(h -> out.put(h.actor + "/" + h.token, h));
            return out;
        }
    }

    private Rebuilt rebuild() {
        List<Mark> sorted = new ArrayList<>(marks());
        sorted.sort(Comparator.comparing(Mark::time).thenComparingLong(Mark::arrival));
        List<Hold> holds = new ArrayList<>();
        List<Pause> pauses = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, Hold> open = new HashMap<>();
        Map<String, Hold> byToken = new HashMap<>();
        Map<String, Instant> pausedSince = new HashMap<>();
        for (Mark m : sorted) {
            Hold current = open.get(m.actor());
            switch (m.kind()) {
                case ACQUIRED -> {
                    if (current != null) {
                        problems.add(m.actor() + " acquired token " + m.value() + " at " + m.time() + " while its hold " + current
                            + " had not ended");
                        end(current, m.time(), "superseded", open);
                    }
                    Hold hold = new Hold(m.actor(), m.value(), m.more(0), m.time());
                    holds.add(hold);
                    open.put(m.actor(), hold);
                    byToken.put(m.actor() + "/" + m.value(), hold);
                }
                case RELEASED, LOST, INVALID, RELEASE_FOUND_LOST -> {
                    Hold hold = byToken.get(m.actor() + "/" + m.value());
                    if (hold == null) {
                        problems.add(m.actor() + " reported " + m.kind() + " of token " + m.value() + " it never acquired");
                    } else if (hold == current && !m.kind().equals(RELEASE_FOUND_LOST)) {
                        // the first of release and loss signal ends the belief; a later one changes nothing
                        end(hold, m.time(), m.kind(), open);
                    }
                }
                case ClientProcess.PAUSED -> pausedSince.put(m.actor(), m.time());
                case ClientProcess.RESUMED -> pauses.add(new Pause(m.actor(), pausedSince.remove(m.actor()), m.time()));
                case ClientProcess.KILLED, ClientProcess.EXITED -> {
                    if (current != null) {
                        end(current, m.time(), m.kind(), open);
                    }
                    Instant paused = pausedSince.remove(m.actor());
                    if (paused != null) {
                        pauses.add(new Pause(m.actor(), paused, m.time()));
                    }
                    if (m.kind().equals(ClientProcess.EXITED)) {
                        problems.add(m.actor() + "'s process exited by itself at " + m.time() + " (see its log)");
                    }
                }
                default -> {
                    // started, ready, error: nothing to rebuild
                }
            }
        }
        pausedSince.forEach((actor, from) -> problems.add(actor + " was paused at " + from + " and never resumed or killed"));
        Instant last = sorted.isEmpty() ? wallOrigin : sorted.get(sorted.size() - 1).time();
        return new Rebuilt(holds, pauses, problems, last);
    }

    private static void end(Hold hold, Instant at, String by, Map<String, Hold> open) {
        hold.end = at;
        hold.endedBy = by;
        open.remove(hold.actor);
    }

    private long nanos(Instant t) {
        return nanosOrigin + Duration.between(wallOrigin, t).toNanos();
    }

    /**
     * The record as the events {@link BoundedExclusion} judges, in order of their stamps: each
     * acquisition (with its node) and the end of its belief, each process pause, and each write
     * the store decided (stamped when its writer issued it).
     *
     * <p>No view zxid goes with an acquisition, so the checker orders a grant against an earlier
     * holder's deletion by time (a double grant when the deletion's floor is after the grant's
     * stamp). A client's last-seen zxid is raised by replies only, not by watch notifications, and
     * the mutex holds at once on the notification that its predecessor's node is gone: its
     * last-seen zxid is then below that deletion, and a view made of it would call a correct
     * handover a double grant (seen in the first run of this judge). Every stamp here is on one
     * machine's clock, so time orders them soundly.
     */
    private List<Event> events(Rebuilt r, List<FencedStore.Write> writes) {
        record Timed(Instant time, long order, String actor, Event.Op op, String key, long value, long view, List<String> nodes) {
        }
        List<Timed> timed = new ArrayList<>();
        long order = 0;
        for (Hold h : r.holds()) {
            timed.add(new Timed(h.start, order++, h.actor, Event.Op.ACQUIRED, KEY, h.token, 0,
                h.node.isEmpty() ? List.of() : List.of(h.node)));
            if (h.end != null) {
                Event.Op op = h.endedBy.equals(RELEASED) || h.endedBy.equals("superseded") ? Event.Op.RELEASED : Event.Op.LOST;
                timed.add(new Timed(h.end, order++, h.actor, op, KEY, 0, 0, List.of()));
            }
        }
        for (Pause p : r.pauses()) {
            timed.add(new Timed(p.from(), order++, p.actor(), Event.Op.PAUSED, "process", nanos(p.to()), 0, List.of()));
        }
        for (FencedStore.Write w : writes) {
            timed.add(new Timed(w.issued(), order++, w.actor(), w.accepted() ? Event.Op.FENCED_WRITE : Event.Op.FENCE_REFUSED,
                "store", w.token(), 0, List.of()));
        }
        timed.sort(Comparator.comparing(Timed::time).thenComparingLong(Timed::order));
        List<Event> events = new ArrayList<>();
        for (Timed t : timed) {
            events.add(new Event(events.size(), nanos(t.time()), t.actor(), t.op(), t.key(), t.value(), t.view(), t.nodes(), false));
        }
        return events;
    }

    /** Refused writes that a holder made after waking from a pause that began during its hold. */
    long staleAfterPause(FencedStore store) {
        Rebuilt r = rebuild();
        return staleAfterPause(r, store.log());
    }

    /**
     * Whether some holder, woken from a pause during its hold, wrote with its token more than
     * {@code bound} after it was resumed. A fenced writer writes on whatever its loss signal said,
     * so such a write shows a hold that outlasted the bound after a resume: had the recipe never
     * signalled the loss, that holder would have believed past the bound, and the loss check
     * would have failed. A run without one could not have told a missing loss signal from a
     * release that came in time.
     */
    boolean wroteOnPastTheBound(FencedStore store, Duration bound) {
        return wroteOnPastTheBound(rebuild(), store.log(), bound);
    }

    private static boolean wroteOnPastTheBound(Rebuilt r, List<FencedStore.Write> writes, Duration bound) {
        Map<String, Hold> byToken = r.byToken();
        return writes.stream().anyMatch(w -> {
            Hold h = byToken.get(w.actor() + "/" + w.token());
            return h != null && r.pauses().stream().anyMatch(p -> p.actor().equals(h.actor) && !p.from().isBefore(h.start)
                && (h.end == null || p.from().isBefore(h.end)) && w.issued().isAfter(p.to().plus(bound)));
        });
    }

    private static long staleAfterPause(Rebuilt r, List<FencedStore.Write> writes) {
        Map<String, Hold> byToken = r.byToken();
        return writes.stream().filter(w -> {
            Hold h = byToken.get(w.actor() + "/" + w.token());
            return !w.accepted() && h != null && r.pauses().stream().anyMatch(p -> p.actor().equals(h.actor)
                && !p.from().isBefore(h.start) && (h.end == null || p.from().isBefore(h.end)) && !w.issued().isBefore(p.to()));
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
     * Judges the run (see the class comment) against the servers' record: bounded exclusion and
     * loss signals under {@code rules}, the fence, and whether the run exercised what it is for
     * ({@code processKills}: KILL_PROCESS faults the nemesis injected).
     *
     * @param truth the servers' record of the lock's nodes, settled once the workers had stopped
     */
    Judgement judge(FencedStore store, ServerTruth truth, BoundedExclusion.Rules rules, int processKills) {
        Rebuilt r = rebuild();
        List<FencedStore.Write> writes = store.log();
        Map<String, List<String>> checks = new LinkedHashMap<>();
        BoundedExclusion.Result exclusion = BoundedExclusion.check(events(r, writes), truth, rules);
        checks.put(rules.policy() + " exclusion", exclusion.violations());
        List<String> signals = new ArrayList<>();
        LossSignals loss = checkLossSignals(r, truth, rules.lateness(), signals);
        checks.put("loss signalled within " + rules.lateness().toMillis() + " ms of the servers' end", signals);
        List<String> fence = new ArrayList<>();
        long refusedWhileHeld = checkRefusals(r, writes, truth, fence);
        checkStore(r, writes, fence);
        checks.put("fenced store", fence);
        checks.put("history", r.problems());
        long afterPause = staleAfterPause(r, writes);
        List<String> coverage = new ArrayList<>();
        if (afterPause == 0) {
            coverage.add("no worker wrote after waking from a pause past its session: the fence was not put to the test");
        }
        if (afterPause > 0 && !wroteOnPastTheBound(r, writes, rules.lateness())) {
            coverage.add("no worker woken from a pause wrote on for more than " + rules.lateness().toMillis() + " ms: a loss"
                + " signal that never came could not have been told from a release in time");
        }
        if (processKills == 0) {
            coverage.add("no worker process was killed");
        }
        checks.put("coverage", coverage);
        Map<String, Long> errors = new TreeMap<>();
        marks().stream().filter(m -> m.kind().equals(ERROR)).forEach(m -> errors.merge(m.more(0), 1L, Long::sum));
        long accepted = writes.stream().filter(FencedStore.Write::accepted).count();
        return new Judgement(r.holds().size(), writes.size(), accepted, writes.size() - accepted, refusedWhileHeld, afterPause,
            exclusion.excusedPaused(), loss.latestMillis(), loss.unjudged(), exclusion.summary(), errors, checks);
    }

    /** The life of a hold's node: the one its token (the node's creation zxid) names. */
    private static Optional<ServerTruth.Node> node(Hold h, ServerTruth truth) {
        return truth.byCzxid(h.token).filter(n -> h.node.isEmpty() || n.path().equals(h.node));
    }

    /**
     * The rule of the class comment, per hold: once the servers have deleted the node, its holder
     * stops believing within {@code bound}, time paused after the deletion not counted. Returns
     * the longest such lateness excused (from the deletion's floor), and how many holds the bounds
     * on the deletion's time left unjudged (within the bound from the ceiling, past it from the
     * floor).
     */
    private LossSignals checkLossSignals(Rebuilt r, ServerTruth truth, Duration bound, List<String> problems) {
        long limit = bound.toNanos();
        long latest = 0;
        int unjudged = 0;
        for (Hold h : r.holds()) {
            Optional<ServerTruth.Node> found = node(h, truth);
            if (found.isEmpty()) {
                if (truth.settled()) {
                    problems.add("the servers' logs know no node of " + h + ": its loss cannot be judged");
                }
                continue;
            }
            ServerTruth.Node node = found.get();
            long end = nanos(h.end == null ? r.last() : h.end);
            if (!node.deleted()) {
                continue;
            }
            // a deletion after the end of the belief (the holder's own release, a killed holder's
            // expiry) makes both latenesses 0
            long ceiling = node.deletedNanos();
            long floor = node.deletedNanosFloor() == 0 ? ceiling : Math.min(ceiling, node.deletedNanosFloor());
            long lateMost = Math.max(0, end - floor) - pausedWithin(r, h.actor, floor, end);
            long lateLeast = Math.max(0, end - ceiling) - pausedWithin(r, h.actor, ceiling, end);
            if (lateLeast > limit) {
                long paused = pausedWithin(r, h.actor, ceiling, end);
                problems.add(h + ": the servers deleted its node (zxid 0x" + Long.toHexString(node.dzxid()) + ") and it went on"
                    + " believing it held for at least " + String.format("%.0f ms", (lateLeast + paused) / 1e6)
                    + (paused > 0 ? String.format(", %.0f ms of it paused, so %.0f ms after it was resumed", paused / 1e6,
                        lateLeast / 1e6) : "")
                    + (h.end == null ? ", never signalling the loss" : ", until " + h.endedBy)
                    + "; the recipe's loss signal must come within " + bound.toMillis() + " ms");
            } else if (lateMost > limit) {
                unjudged++;
            } else {
                latest = Math.max(latest, lateMost);
            }
        }
        return new LossSignals(latest / 1e6, unjudged);
    }

    /** The loss check's counts: the longest lateness excused (ms), and the holds it could not judge. */
    private record LossSignals(double latestMillis, int unjudged) {
    }

    /** How long, between {@code from} and {@code to} (nanos), the actor's process was paused. */
    private long pausedWithin(Rebuilt r, String actor, long from, long to) {
        long paused = 0;
        for (Pause p : r.pauses()) {
            if (p.actor().equals(actor)) {
                paused += Math.max(0, Math.min(to, nanos(p.to())) - Math.max(from, nanos(p.from())));
            }
        }
        return paused;
    }

    /**
     * The checks of the fence that are about Baton: a refused write must come from a hold whose
     * node the servers had deleted before the write reached the store, and an accepted write must
     * carry a token its writer was granted. Returns the refused writes of holds the servers still
     * kept.
     */
    private long checkRefusals(Rebuilt r, List<FencedStore.Write> writes, ServerTruth truth, List<String> problems) {
        Map<String, Hold> byToken = r.byToken();
        long whileHeld = 0;
        for (FencedStore.Write w : writes) {
            Hold hold = byToken.get(w.actor() + "/" + w.token());
            if (hold == null) {
                problems.add("write #" + w.seq() + " by " + w.actor() + " was " + (w.accepted() ? "accepted" : "refused")
                    + " with token " + w.token() + ", which it was never granted");
                continue;
            }
            if (w.accepted()) {
                continue;
            }
            Optional<ServerTruth.Node> node = node(hold, truth);
            if (node.isEmpty()) {
                continue; // reported by the loss check
            }
            ServerTruth.Node n = node.get();
            long arrived = nanos(w.arrived());
            long floor = n.deletedNanosFloor() == 0 ? n.deletedNanos() : Math.min(n.deletedNanos(), n.deletedNanosFloor());
            if (!n.deleted() || floor - arrived > 0) {
                whileHeld++;
                problems.add("write #" + w.seq() + " by " + w.actor() + " with token " + w.token() + " was refused at "
                    + w.arrived() + " while the servers still kept its hold's node " + n.path() + (n.deleted() ? " (deleted"
                    + " only at zxid 0x" + Long.toHexString(n.dzxid()) + ")" : " (never deleted)")
                    + ": a newer token was handed out while this hold lived");
            }
        }
        return whileHeld;
    }

    /**
     * The store's own answers, from its log (see the class comment: these catch a broken store,
     * not a broken lock): going through the writes in the order the store decided them, a write is
     * stale when a larger token was accepted before it and must be refused exactly then; a write
     * stamped after a larger token was accepted must be refused whatever the order of arrival.
     */
    private static void checkStore(Rebuilt r, List<FencedStore.Write> writes, List<String> problems) {
        NavigableMap<Long, Instant> firstAccepted = new TreeMap<>();
        long highest = Long.MIN_VALUE;
        for (FencedStore.Write w : writes) {
            boolean isStale = w.token() < highest;
            if (isStale == w.accepted()) {
                problems.add("write #" + w.seq() + " by " + w.actor() + " with token " + w.token() + " was "
                    + (w.accepted() ? "accepted" : "refused") + " though the largest token accepted before it was " + highest);
            }
            if (w.accepted()) {
                highest = Math.max(highest, w.token());
                firstAccepted.putIfAbsent(w.token(), w.arrived());
            }
        }
        for (FencedStore.Write w : writes) {
            Instant newer = firstAccepted.tailMap(w.token(), false).values().stream().min(Comparator.naturalOrder()).orElse(null);
            if (w.accepted() && newer != null && w.issued().isAfter(newer)) {
                problems.add("write #" + w.seq() + " by " + w.actor() + " with token " + w.token() + ", stamped " + w.issued()
                    + ", was accepted though a larger token had been accepted at " + newer);
            }
        }
    }
}

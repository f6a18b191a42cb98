package dev.baton.test.history;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A recorded history of the holds of one read/write lock, and the check that it behaved as a
 * fair readers-writers lock.
 *
 * <p>Record {@link #entered} after an acquisition returned (with the hold's fencing token),
 * {@link #exiting} before releasing it, and {@link #lost} when its loss is learned. Then
 * {@link #check()} decides, from the record order alone:
 *
 * <ul>
 *   <li><b>Exclusion.</b> While a write hold is in, nobody else is: no hold of another actor
 *       enters, and a write hold does not enter while another actor's hold of either kind is in.
 *       Readers of different actors may overlap. An actor's own read and write holds may overlap
 *       (a write holder that takes the read lock: a downgrade).</li>
 *   <li><b>Turns.</b> A hold's token is the creation zxid of the node that gave it its place in
 *       line, so tokens order the line. Two holds <em>conflict</em> when either is a write. Of two
 *       conflicting holds, the one with the smaller token must enter first. That is what "a
 *       writer's turn" means here: a writer enters after every hold whose node came before its
 *       own and before every hold whose node came after it; a writer overtaken by a later reader
 *       or writer waited longer than its turn, and a reader that entered ahead of an earlier
 *       writer jumped the line. Two conflicting holds with one token are allowed only for a
 *       downgrade (one actor's write hold and the read hold it took, which sits in the write
 *       hold's place).</li>
 * </ul>
 *
 * <p>Holds that never entered (timed out, cancelled) are not recorded and not checked; liveness —
 * that a writer does enter once its turn comes — is for the test's deadlines to judge. A test
 * that provokes loss (a session expiry) and tolerates the overlap between a holder that has not
 * yet learned of it and the next holder checks {@link #checkTurns()} alone.
 */
public final class ReadersWriters {
    /** The kind of hold. */
    public enum Mode {
        /** A read hold: shared with other readers. */
        READ,
        /** A write hold: alone. */
        WRITE
    }

    /** What happened to a hold. */
    public enum Kind {
        /** The hold began. */
        ENTERED,
        /** The hold is about to be released. */
        EXITING,
        /** The holder learned the hold was lost. */
        LOST
    }

    /** One event, in record order; {@code hold} numbers the hold it belongs to (from its ENTERED event). */
    public record Event(long order, Kind kind, long hold, String actor, Mode mode, long token) {
        @Override
        public String toString() {
            return "#" + order + " " + actor + " " + kind + " " + mode + " (token " + token + ", hold " + hold + ")";
        }
    }

    /** A hold that entered, to pass to {@link #exiting} and {@link #lost}. */
    public record Hold(long id, String actor, Mode mode, long token) {
    }

    private final List<Event> events = new ArrayList<>();

    /**
     * {@code actor} now holds the lock in {@code mode}, with fencing token {@code token}.
     *
     * @param actor who
     * @param mode read or write
     * @param token the hold's token
     * @return the hold, to pass to {@link #exiting} or {@link #lost}
     */
    public synchronized Hold entered(String actor, Mode mode, long token) {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(mode, "mode");
        Hold hold = new Hold(events.size(), actor, mode, token);
        add(Kind.ENTERED, hold);
        return hold;
    }

    /**
     * The hold stops acting as one; call it before the release.
     *
     * @param hold what {@link #entered} returned
     */
    public synchronized void exiting(Hold hold) {
        add(Kind.EXITING, Objects.requireNonNull(hold, "hold"));
    }

    /**
     * The holder learned that the hold was lost; it no longer acts as one.
     *
     * @param hold what {@link #entered} returned
     */
    public synchronized void lost(Hold hold) {
        add(Kind.LOST, Objects.requireNonNull(hold, "hold"));
    }

    private void add(Kind kind, Hold hold) {
        events.add(new Event(events.size(), kind, hold.id(), hold.actor(), hold.mode(), hold.token()));
    }

    /** {@return every event so far, in order} */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /**
     * {@return how many holds entered in {@code mode}}
     *
     * @param mode read or write
     */
    public synchronized long entries(Mode mode) {
        return events.stream().filter(e -> e.kind() == Kind.ENTERED && e.mode() == mode).count();
    }

    /** {@return the most read holds that were in at once} */
    public synchronized int mostConcurrentReaders() {
        int in = 0;
        int most = 0;
        Set<Long> ended = new HashSet<>();
        for (Event e : events) {
            if (e.mode() != Mode.READ) {
                continue;
            }
            if (e.kind() == Kind.ENTERED) {
                most = Math.max(most, ++in);
            } else if (ended.add(e.hold())) {
                in--;
            }
        }
        return most;
    }

    /**
     * Exclusion and turns.
     *
     * @return the verdict
     */
    public synchronized Verdict check() {
        List<String> violations = exclusionViolations();
        violations.addAll(turnViolations());
        return new Verdict("readers-writers exclusion and turns", events.size(), violations);
    }

    /**
     * Turns alone (for histories with lost holds, whose overlap a fenced resource absorbs).
     *
     * @return the verdict
     */
    public synchronized Verdict checkTurns() {
        return new Verdict("readers-writers turns", events.size(), turnViolations());
    }

    private List<String> exclusionViolations() {
        List<String> violations = new ArrayList<>();
        List<Event> inside = new ArrayList<>();
        for (Event e : events) {
            if (e.kind() != Kind.ENTERED) {
                inside.removeIf(in -> in.hold() == e.hold());
                continue;
            }
            for (Event in : inside) {
                boolean conflict = e.mode() == Mode.WRITE || in.mode() == Mode.WRITE;
                if (conflict && !in.actor().equals(e.actor())) {
                    violations.add(e + ": entered while " + in.actor() + " held a " + in.mode() + " hold (since " + in + ")");
                }
            }
            inside.add(e);
        }
        return violations;
    }

    private List<String> turnViolations() {
        List<String> violations = new ArrayList<>();
        List<Event> entries = events.stream().filter(e -> e.kind() == Kind.ENTERED).toList();
        for (int i = 0; i < entries.size(); i++) {
            Event earlier = entries.get(i);
            for (int j = i + 1; j < entries.size(); j++) {
                Event later = entries.get(j);
                if (earlier.mode() == Mode.READ && later.mode() == Mode.READ) {
                    continue;
                }
                if (later.token() < earlier.token()) {
                    Event writer = later.mode() == Mode.WRITE ? later : earlier;
                    violations.add(later + " entered after " + earlier + " although its node came first: "
                        + (writer == later ? "the writer waited longer than its turn" : "the writer jumped the line"));
                } else if (later.token() == earlier.token() && !later.actor().equals(earlier.actor())) {
                    violations.add(later + " and " + earlier + " share a token but are held by different actors");
                }
            }
        }
        return violations;
    }
}

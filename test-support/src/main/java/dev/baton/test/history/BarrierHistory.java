package dev.baton.test.history;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A recorded history of double-barrier members, and the check that nobody passed {@code enter}
 * early.
 *
 * <p>Record {@link #arrived} before calling {@code enter}, {@link #passed} after it returned true,
 * {@link #gaveUp} after it returned false (or failed), and {@link #leaving} before calling
 * {@code leave}. A member is present from its arrival until it gives up or starts leaving. A pass
 * is legitimate when at least {@code memberQty} members (the passer included) were present
 * together at some point between the passer's arrival and its pass. A barrier that let a newcomer
 * through on the leftovers of a round still leaving fails this check: those members had started
 * leaving before the newcomer arrived.
 */
public final class BarrierHistory {
    /** What happened. */
    public enum Kind { ARRIVED, PASSED, GAVE_UP, LEAVING }

    /** One event, in record order. */
    public record Event(long order, Kind kind, String member) {
    }

    private final List<Event> events = new ArrayList<>();

    public synchronized void arrived(String member) {
        add(Kind.ARRIVED, member);
    }

    public synchronized void passed(String member) {
        add(Kind.PASSED, member);
    }

    public synchronized void gaveUp(String member) {
        add(Kind.GAVE_UP, member);
    }

    public synchronized void leaving(String member) {
        add(Kind.LEAVING, member);
    }

    private void add(Kind kind, String member) {
        events.add(new Event(events.size(), kind, member));
    }

    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /** Number of passes recorded. */
    public synchronized long passes() {
        return events.stream().filter(e -> e.kind() == Kind.PASSED).count();
    }

    /** The problems found: one line per early pass; empty when every pass was legitimate. */
    public synchronized List<String> checkNobodyPassedEarly(int memberQty) {
        List<String> problems = new ArrayList<>();
        for (Event pass : events) {
            if (pass.kind() != Kind.PASSED) {
                continue;
            }
            long arrival = lastArrivalBefore(pass.member(), pass.order());
            Set<String> together = new HashSet<>();
            for (Event e : events) {
                if (e.kind() == Kind.ARRIVED && e.order() < pass.order() && endOf(e) > arrival) {
                    together.add(e.member());
                }
            }
            if (together.size() < memberQty) {
                problems.add(pass + " with only " + together.size() + " member(s) present since its arrival #" + arrival
                    + ": " + together);
            }
        }
        return problems;
    }

    private long lastArrivalBefore(String member, long order) {
        long found = -1;
        for (Event e : events) {
            if (e.order() >= order) {
                break;
            }
            if (e.kind() == Kind.ARRIVED && e.member().equals(member)) {
                found = e.order();
            }
        }
        return found;
    }

    /** When the presence that began with {@code arrival} ended (giving up or leaving), or never. */
    private long endOf(Event arrival) {
        for (Event e : events) {
            if (e.order() > arrival.order() && e.member().equals(arrival.member())
                && (e.kind() == Kind.GAVE_UP || e.kind() == Kind.LEAVING || e.kind() == Kind.ARRIVED)) {
                return e.order();
            }
        }
        return Long.MAX_VALUE;
    }
}

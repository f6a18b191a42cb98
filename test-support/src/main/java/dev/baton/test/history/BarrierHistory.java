package dev.baton.test.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
    public enum Kind {
        /** The member called {@code enter} (record it before the call). */
        ARRIVED,
        /** The member's {@code enter} returned true: it passed the barrier. */
        PASSED,
        /** The member's {@code enter} returned false or failed: it did not pass. */
        GAVE_UP,
        /** The member is about to leave. */
        LEAVING
    }

    /** One event, in record order. */
    public record Event(long order, Kind kind, String member) {
    }

    private final List<Event> events = new ArrayList<>();

    /**
     * Records that {@code member} is about to call {@code enter}.
     *
     * @param member the member's name
     */
    public synchronized void arrived(String member) {
        add(Kind.ARRIVED, member);
    }

    /**
     * Records that {@code member}'s {@code enter} returned true.
     *
     * @param member the member's name
     */
    public synchronized void passed(String member) {
        add(Kind.PASSED, member);
    }

    /**
     * Records that {@code member}'s {@code enter} returned false or failed.
     *
     * @param member the member's name
     */
    public synchronized void gaveUp(String member) {
        add(Kind.GAVE_UP, member);
    }

    /**
     * Records that {@code member} is about to call {@code leave}.
     *
     * @param member the member's name
     */
    public synchronized void leaving(String member) {
        add(Kind.LEAVING, member);
    }

    private void add(Kind kind, String member) {
        events.add(new Event(events.size(), kind, member));
    }

    /** {@return every event so far, in order} */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /** {@return number of passes recorded} */
    public synchronized long passes() {
        return events.stream().filter(e -> e.kind() == Kind.PASSED).count();
    }

    /**
     * {@return the problems found: one line per early pass; empty when every pass was legitimate}
     *
     * <p>One pass over the events, linear in their number: for each member only its latest
     * arrival before the pass matters, because a member's presences do not overlap, so a later
     * arrival always ends later than an earlier one.
     *
     * @param memberQty the barrier's member count
     */
    public synchronized List<String> checkNobodyPassedEarly(int memberQty) {
        long[] ends = presenceEnds();
        Map<String, Event> latestArrival = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (Event e : events) {
            if (e.kind() == Kind.ARRIVED) {
                latestArrival.put(e.member(), e);
                continue;
            }
            if (e.kind() != Kind.PASSED) {
                continue;
            }
            Event own = latestArrival.get(e.member());
            long arrival = own == null ? -1 : own.order();
            Set<String> together = new TreeSet<>();
            latestArrival.forEach((member, a) -> {
                if (ends[(int) a.order()] > arrival) {
                    together.add(member);
                }
            });
            if (together.size() < memberQty) {
                problems.add(e + " with only " + together.size() + " member(s) present since its arrival #" + arrival
                    + ": " + together);
            }
        }
        return problems;
    }

    /**
     * For each arrival (by order), when that presence ended: the member's next event other than a
     * pass (giving up, leaving, or arriving again), or never.
     */
    private long[] presenceEnds() {
        long[] ends = new long[events.size()];
        Map<String, Event> open = new HashMap<>();
        for (Event e : events) {
            if (e.kind() == Kind.PASSED) {
                continue;
            }
            Event arrival = open.remove(e.member());
            if (arrival != null) {
                ends[(int) arrival.order()] = e.order();
            }
            if (e.kind() == Kind.ARRIVED) {
                ends[(int) e.order()] = Long.MAX_VALUE;
                open.put(e.member(), e);
            }
        }
        return ends;
    }
}

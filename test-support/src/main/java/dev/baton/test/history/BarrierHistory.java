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
    /** For passes recorded with {@link #passed(String, String, long)}: by order, the member's node name and view zxid. */
    private final Map<Long, Object[]> passViews = new HashMap<>();

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
     * {@code member} passed {@code enter}, as its node {@code nodeName} (a child of the barrier
     * path), with its client having seen the servers up to {@code viewZxid} (see {@link Zxids}).
     *
     * @param member the member's name
     * @param nodeName the member's node, a child of the barrier path
     * @param viewZxid the last zxid the member's client had seen when {@code enter} returned
     */
    public synchronized void passed(String member, String nodeName, long viewZxid) {
        passViews.put((long) events.size(), new Object[] {nodeName, viewZxid});
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

    /**
     * Judges passes recorded with {@link #passed(String, String, long)} against the servers:
     * a pass is legitimate only if, at some state of the servers between the creation of the
     * passer's own node and the state its pass was decided on, {@code memberQty} member nodes
     * existed at the same time. Presence starts when a member's node exists and ends when it is
     * deleted; the {@code ready} node is not a member. A barrier that opens on fewer members
     * fails here, and so does a pass as a node the servers never had. Judge on a settled truth
     * ({@link ServerTruth#settle()}), which knows every node.
     *
     * @param truth the servers' record, watching {@code barrierPath}
     * @param barrierPath the barrier's folder; its children other than {@code ready} are the
     *     member nodes
     * @param memberQty how many members the barrier waits for
     * @return one line per illegitimate pass; empty if every recorded pass was legitimate (passes
     *     recorded without a node and view zxid are not judged here)
     */
    public synchronized List<String> checkAgainstServers(ServerTruth truth, String barrierPath, int memberQty) {
        List<ServerTruth.Node> members = new ArrayList<>();
        for (ServerTruth.Node n : truth.nodes()) {
            if (n.path().startsWith(barrierPath + "/") && n.path().indexOf('/', barrierPath.length() + 1) < 0
                && !n.name().equals("ready") && n.czxid() > 0) {
                members.add(n);
            }
        }
        List<String> problems = new ArrayList<>();
        for (Event e : events) {
            Object[] view = passViews.get(e.order());
            if (e.kind() != Kind.PASSED || view == null) {
                continue;
            }
            String node = barrierPath + "/" + view[0];
            long seen = (Long) view[1];
            ServerTruth.Node own = members.stream().filter(n -> n.path().equals(node) && n.czxid() <= seen)
                .max(java.util.Comparator.comparingLong(ServerTruth.Node::czxid)).orElse(null);
            if (own == null) {
                // the truth is complete once settled: a pass on a node the servers never had is a pass without presence
                problems.add(e + " (node " + view[0] + ", view zxid 0x" + Long.toHexString(seen) + "): the servers had no such"
                    + " member node at or before the pass");
                continue;
            }
            List<ServerTruth.Node> around = members.stream()
                .filter(n -> n.czxid() <= seen && (!n.deleted() || n.dzxid() > own.czxid())).toList();
            int most = 0;
            for (ServerTruth.Node at : around) {
                long z = Math.max(at.czxid(), own.czxid());
                if (z > seen) {
                    continue;
                }
                most = Math.max(most, (int) around.stream().filter(n -> n.existedAt(z)).count());
            }
            if (most < memberQty) {
                problems.add(e + " (node " + view[0] + ", view zxid 0x" + Long.toHexString(seen) + "): at most " + most
                    + " member node(s) existed at once between its node's creation and its pass; " + memberQty + " needed");
            }
        }
        return problems;
    }
}

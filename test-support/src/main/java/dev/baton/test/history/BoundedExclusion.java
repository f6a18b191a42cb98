package dev.baton.test.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Judges a history of holds (locks, leases, leaderships) against the servers' own record
 * ({@link ServerTruth}): no two conflicting holders at once, except for the bounded overlap that a
 * ZooKeeper-based recipe cannot avoid, and only when it was caused by the servers ending the
 * earlier hold.
 *
 * <p>A hold lasts, in the holder's belief, from its {@link Event.Op#ACQUIRED} record to its
 * {@link Event.Op#RELEASED} or {@link Event.Op#LOST} record (or the end of the history). On the
 * servers it lasts until its node is deleted. When hold B is granted while an earlier conflicting
 * hold A is still believed:
 *
 * <ol>
 *   <li><b>Double grant.</b> If A's node still existed at the state of the servers B's grant was
 *       decided on — B's view zxid is below the zxid that deleted A's node, or A's node was never
 *       deleted — the recipe granted twice: always a violation, whatever the policy. (With no view
 *       zxid recorded, the deletion's observed time is compared with B's grant instead.)</li>
 *   <li><b>Late belief.</b> Otherwise the servers had ended A's hold (its session ended, or its
 *       node was deleted) before B was granted, and A had not yet heard. That is excused only if A
 *       stopped believing within the rules' {@link Rules#lateness() lateness} of the deletion (the
 *       servers' deletion time, known between a floor and a ceiling: see {@link ServerTruth}).
 *       Under the STANDARD error policy and the LEASE
 *       leadership policy the lateness is the event-delivery margin; under SESSION_ONLY and SESSION
 *       it is the documented bound (a session timeout). A recipe that ignores session loss keeps
 *       believing and fails here.</li>
 *   <li><b>Process pause.</b> Time during which A's process was recorded {@link Event.Op#PAUSED}
 *       does not count against the lateness: nothing in a stopped process can notice a loss, so
 *       that overlap is the fencing token's job. The overlap is then excused only if every write
 *       A made to a fenced resource with its stale token after B was granted was refused
 *       ({@link Event.Op#FENCE_REFUSED}); an accepted one is a violation.</li>
 * </ol>
 *
 * <p>With a {@link Rules#limit() limit} above one (a semaphore), a grant is judged only when more
 * than {@code limit} holds are believed at once: holds whose nodes the servers had deleted before
 * the grant's view are judged by rule 2 (and 3), and the others must number at most
 * {@code limit}. Shared holds ({@link Event#shared()}: read locks) conflict only with exclusive
 * ones. With a limit of one, tokens of successive grants of a key must strictly increase (the same
 * holder may be granted the same token again: a leader that keeps its term through a reconnect).
 *
 * <p>What cannot be judged — a hold whose node the truth does not know, a deletion found only by
 * a listing whose zxid bound does not decide the order, or a lateness that the bounds on the
 * deletion's time put on both sides of the rule's bound — is counted as unjudged and reported,
 * not excused silently.
 */
public final class BoundedExclusion {
    private BoundedExclusion() {
    }

    /**
     * What the checker allows.
     *
     * @param limit how many may hold at once (1: a mutex, an election)
     * @param lateness how long after the servers deleted a holder's node it may still believe
     * @param policy the policy the lateness comes from, for messages
     */
    public record Rules(int limit, Duration lateness, String policy) {
        /**
         * Checks the rules.
         *
         * @param limit how many may hold at once, at least 1
         * @param lateness how long after the servers deleted a holder's node it may still believe
         * @param policy the policy the lateness comes from, for messages
         * @throws IllegalArgumentException if {@code limit} is below 1
         * @throws NullPointerException if {@code lateness} or {@code policy} is null
         */
        public Rules {
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be at least 1, was " + limit);
            }
            Objects.requireNonNull(lateness, "lateness");
            Objects.requireNonNull(policy, "policy");
        }
    }

    /**
     * The judgement.
     *
     * @param verdict the violations
     * @param holds holds judged
     * @param overlaps conflicting overlaps met
     * @param excusedLate overlaps excused because the earlier holder stopped believing within the lateness
     * @param excusedPaused overlaps excused as a process pause (fenced)
     * @param unjudged overlaps that could not be judged (see the class comment)
     * @param latestBeliefMillis the longest an earlier holder believed after the servers deleted its node, in an overlap
     */
    public record Result(Verdict verdict, int holds, int overlaps, int excusedLate, int excusedPaused, int unjudged,
                         double latestBeliefMillis) {
        /**
         * The violations found, as the verdict holds them.
         *
         * @return one line per violation; empty if the history passed
         */
        public List<String> violations() {
            return verdict.violations();
        }

        /**
         * One line on what was judged and excused, for a test's output: how close to the bound a
         * passing run came.
         *
         * @return the counts of holds, overlaps, excused and unjudged overlaps, and the latest
         *     belief after a deletion, in milliseconds
         */
        public String summary() {
            return String.format("%d holds, %d overlaps (%d within the lateness bound, %d process pauses, %d unjudged), "
                + "latest belief %.0f ms after the servers' deletion", holds, overlaps, excusedLate, excusedPaused, unjudged,
                latestBeliefMillis);
        }
    }

    /** One hold as the history tells it. */
    private static final class Hold {
        final Event start;
        long endIndex = Long.MAX_VALUE;
        long endNanos = Long.MAX_VALUE;
        ServerTruth.Node ended;
        boolean nodeKnown;

        Hold(Event start) {
            this.start = start;
        }

        boolean openAt(long index) {
            return start.index() < index && index < endIndex;
        }
    }

    /**
     * Judges a history against the servers' record under the rules (see the class comment).
     *
     * @param history the events of every actor, in index order (as {@link History} records them);
     *     events of ops this checker does not use are skipped
     * @param truth the servers' record of the holds' nodes, settled if it was observed (see
     *     {@link ServerTruth#settle()})
     * @param rules the number of holders allowed and the lateness excused
     * @return the verdict with every violation, and the counts behind it
     */
    public static Result check(List<Event> history, ServerTruth truth, Rules rules) {
        List<String> violations = new ArrayList<>();
        List<Hold> holds = holds(history, violations);
        long lastNanos = history.isEmpty() ? 0 : history.get(history.size() - 1).nanos();
        for (Hold h : holds) {
            resolve(h, truth);
        }
        Map<String, List<Event>> pauses = new HashMap<>();
        Map<String, List<Event>> writes = new HashMap<>();
        for (Event e : history) {
            if (e.op() == Event.Op.PAUSED) {
                pauses.computeIfAbsent(e.actor(), k -> new ArrayList<>()).add(e);
            } else if (e.op() == Event.Op.FENCED_WRITE) {
                writes.computeIfAbsent(e.actor(), k -> new ArrayList<>()).add(e);
            }
        }
        Counts counts = new Counts();
        for (Hold b : holds) {
            List<Hold> open = new ArrayList<>();
            for (Hold a : holds) {
                if (a != b && a.start.key().equals(b.start.key()) && a.openAt(b.start.index())
                    && !(a.start.shared() && b.start.shared()) && !a.start.actor().equals(b.start.actor())) {
                    open.add(a);
                }
            }
            if (open.isEmpty()) {
                continue;
            }
            if (rules.limit() == 1 || b.start.shared() || open.stream().anyMatch(a -> a.start.shared())) {
                for (Hold a : open) {
                    judge(a, b, rules, lastNanos, pauses, writes, violations, counts);
                }
            } else if (open.size() + 1 > rules.limit()) {
                List<Hold> live = new ArrayList<>();
                for (Hold a : open) {
                    if (deletedBefore(a, b) == Boolean.TRUE) {
                        judge(a, b, rules, lastNanos, pauses, writes, violations, counts);
                    } else {
                        live.add(a);
                    }
                }
                if (live.size() + 1 > rules.limit()) {
                    counts.overlaps++;
                    violations.add(at(b) + ": granted while " + live.size() + " other holder(s) whose nodes the servers had "
                        + "not deleted still held, at most " + rules.limit() + " allowed: " + live.stream()
                        .map(a -> a.start.actor() + " (since " + a.start + ")").toList());
                }
            }
        }
        if (rules.limit() == 1) {
            // (tokens order conflicting grants only: readers may enter in any order)
            violations.addAll(tokenViolations(holds));
        }
        Verdict verdict = new Verdict("bounded exclusion (" + rules.policy() + ", lateness " + rules.lateness().toMillis()
            + " ms, limit " + rules.limit() + ")", history.size(), violations);
        return new Result(verdict, holds.size(), counts.overlaps, counts.late, counts.paused, counts.unjudged,
            counts.latestNanos / 1e6);
    }

    private static final class Counts {
        int overlaps;
        int late;
        int paused;
        int unjudged;
        long latestNanos;
    }

    private static List<Hold> holds(List<Event> history, List<String> violations) {
        List<Hold> holds = new ArrayList<>();
        Map<String, Hold> open = new HashMap<>();
        for (Event e : history) {
            String who = e.actor() + "\u0000" + e.key();
            switch (e.op()) {
                case ACQUIRED -> {
                    Hold previous = open.get(who);
                    if (previous != null) {
                        violations.add(e + ": granted again while its hold since " + previous.start + " had not ended");
                        previous.endIndex = e.index();
                        previous.endNanos = e.nanos();
                    }
                    Hold h = new Hold(e);
                    holds.add(h);
                    open.put(who, h);
                }
                case RELEASED, LOST -> {
                    Hold h = open.remove(who);
                    if (h != null) {
                        h.endIndex = e.index();
                        h.endNanos = e.nanos();
                    } else if (e.op() == Event.Op.RELEASED) {
                        violations.add(e + ": released without holding it");
                    }
                }
                default -> { }
            }
        }
        return holds;
    }

    /** Finds the hold's node(s) in the truth: by path if recorded, else by the token (the node's czxid). */
    private static void resolve(Hold h, ServerTruth truth) {
        List<ServerTruth.Node> nodes = new ArrayList<>();
        if (h.start.nodes().isEmpty()) {
            truth.byCzxid(h.start.value()).ifPresent(nodes::add);
        } else {
            for (String path : h.start.nodes()) {
                List<ServerTruth.Node> lives = truth.lives(path);
                long view = h.start.viewZxid();
                Optional<ServerTruth.Node> life = lives.stream()
                    .filter(n -> view == 0 || n.czxid() <= view || n.czxid() == -1)
                    .max(Comparator.comparingLong(ServerTruth.Node::czxid));
                life.or(() -> lives.stream().findFirst()).ifPresent(nodes::add);
            }
        }
        h.nodeKnown = !nodes.isEmpty();
        // the servers ended the hold when the first of its nodes went
        h.ended = nodes.stream().filter(ServerTruth.Node::deleted).min(Comparator.comparingLong(ServerTruth.Node::dzxid))
            .orElse(null);
    }

    /** Whether a's node was deleted before b's grant was decided: true, false, or null when that cannot be told. */
    private static Boolean deletedBefore(Hold a, Hold b) {
        if (!a.nodeKnown) {
            return null;
        }
        if (a.ended == null) {
            return false;
        }
        long view = b.start.viewZxid();
        if (view == 0) {
            // no view recorded: compare times, the deletion's being known only between a floor and a ceiling
            if (a.ended.deletedNanos() - b.start.nanos() <= 0) {
                return true;
            }
            return a.ended.deletedNanosFloor() - b.start.nanos() > 0 ? Boolean.FALSE : null;
        }
        if (a.ended.dzxid() <= view) {
            return true;
        }
        if (!a.ended.deletionExact()) {
            return null; // the zxid is only an upper bound
        }
        // The view can lag the grant: ZooKeeper raises a client's last-seen zxid on replies, not on
        // watch notifications, so a mutex that holds as soon as it hears its predecessor's node is
        // gone carries a view below that very deletion. A view below the deletion therefore proves
        // nothing by itself; the servers' deletion time decides, as when no view was recorded.
        if (a.ended.deletedNanos() - b.start.nanos() <= 0) {
            return true;
        }
        return a.ended.deletedNanosFloor() - b.start.nanos() > 0 ? Boolean.FALSE : null;
    }

    private static void judge(Hold a, Hold b, Rules rules, long lastNanos, Map<String, List<Event>> pauses,
                              Map<String, List<Event>> writes, List<String> violations, Counts counts) {
        counts.overlaps++;
        Boolean before = deletedBefore(a, b);
        if (before == null) {
            counts.unjudged++;
            return;
        }
        if (!before) {
            violations.add(at(b) + ": double grant: granted (view zxid 0x" + Long.toHexString(b.start.viewZxid())
                + ") while " + a.start.actor() + "'s node " + (a.ended == null ? "was never deleted"
                : "was deleted only at zxid 0x" + Long.toHexString(a.ended.dzxid())) + " (it held since " + a.start + ")");
            return;
        }
        // the servers' deletion time is known between a floor and a ceiling (see ServerTruth): the
        // overlap is excused only if it is within the bound from the floor, a violation only if it
        // exceeds the bound from the ceiling, and unjudged in between
        long deleted = a.ended.deletedNanos();
        long floor = Math.min(deleted, a.ended.deletedNanosFloor());
        long end = a.endNanos == Long.MAX_VALUE ? lastNanos : a.endNanos;
        long lateMost = Math.max(0, end - floor);
        long lateLeast = Math.max(0, end - deleted);
        long bound = rules.lateness().toNanos();
        if (lateMost <= bound) {
            counts.late++;
            counts.latestNanos = Math.max(counts.latestNanos, lateMost);
            return;
        }
        long pausedMost = pausedWithin(pauses.getOrDefault(a.start.actor(), List.of()), floor, end);
        long pausedLeast = pausedWithin(pauses.getOrDefault(a.start.actor(), List.of()), deleted, end);
        if (lateMost - pausedMost <= bound) {
            counts.paused++;
            for (Event w : writes.getOrDefault(a.start.actor(), List.of())) {
                if (w.value() == a.start.value() && w.index() > b.start.index() && w.index() < a.endIndex) {
                    violations.add(at(w) + ": " + a.start.actor() + ", paused past the end of its hold, wrote to " + w.key()
                        + " with its stale token " + w.value() + " after " + b.start.actor() + " was granted, and the"
                        + " resource accepted it");
                }
            }
            return;
        }
        if (lateLeast - pausedLeast <= bound) {
            counts.unjudged++;
            return;
        }
        long late = lateLeast;
        long paused = pausedLeast;
        counts.latestNanos = Math.max(counts.latestNanos, late);
        violations.add(at(b) + ": granted after the servers deleted " + a.start.actor() + "'s node (zxid 0x"
            + Long.toHexString(a.ended.dzxid()) + "), but " + a.start.actor() + " believed it held for at least "
            + String.format("%.0f ms", late / 1e6) + " after that deletion"
            + (a.endNanos == Long.MAX_VALUE ? " (until the end of the history, never signalling the loss)" : "")
            + (paused > 0 ? String.format(", %.0f ms of it paused", paused / 1e6) : "")
            + "; the bound under " + rules.policy() + " is " + rules.lateness().toMillis() + " ms (held since " + a.start + ")");
    }

    /** How long, between {@code from} and {@code to}, the actor's process was recorded paused. */
    private static long pausedWithin(List<Event> pauses, long from, long to) {
        long paused = 0;
        for (Event p : pauses) {
            paused += Math.max(0, Math.min(to, p.value()) - Math.max(from, p.nanos()));
        }
        return paused;
    }

    /**
     * Of two conflicting grants of a key (not both shared), the later one carries the larger token;
     * readers among themselves may be granted in any order.
     */
    private static List<String> tokenViolations(List<Hold> holds) {
        List<String> violations = new ArrayList<>();
        Map<String, Event> largest = new HashMap<>();
        Map<String, Event> largestExclusive = new HashMap<>();
        for (Hold h : holds) {
            Event e = h.start;
            Event before = e.shared() ? largestExclusive.get(e.key()) : largest.get(e.key());
            if (before != null && (e.value() < before.value()
                || (e.value() == before.value() && !e.actor().equals(before.actor())))) {
                violations.add(at(e) + ": fencing token " + e.value() + " is not larger than " + before.value() + " of " + before);
            }
            largest.merge(e.key(), e, (a, b) -> b.value() > a.value() ? b : a);
            if (!e.shared()) {
                largestExclusive.merge(e.key(), e, (a, b) -> b.value() > a.value() ? b : a);
            }
        }
        return violations;
    }

    private static String at(Hold h) {
        return at(h.start);
    }

    private static String at(Event e) {
        return e.toString();
    }
}

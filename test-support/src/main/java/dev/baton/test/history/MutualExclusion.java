package dev.baton.test.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a lock history: for each key, no actor acquires while another holds (a hold ends with
 * RELEASED or LOST), nobody releases what it does not hold, and fencing tokens strictly increase
 * in the order of acquisition.
 *
 * <p>LOST ends a hold at the moment it was recorded, so an overlap between a holder that had
 * not yet learned of its loss and the next holder is still reported: a test that provokes loss
 * and tolerates that overlap (because a fenced resource protects it) checks
 * {@link #tokensIncrease} alone.
 */
public final class MutualExclusion {
    private MutualExclusion() {
    }

    /**
     * {@return one holder at a time per key, releases only by the holder, and increasing tokens}
     *
     * @param history the events, in order
     */
    public static Verdict check(List<Event> history) {
        List<String> violations = new ArrayList<>();
        Map<String, Event> holders = new HashMap<>();
        for (Event e : history) {
            switch (e.op()) {
                case ACQUIRED -> {
                    Event holder = holders.get(e.key());
                    if (holder != null) {
                        violations.add(e + ": acquired while " + holder.actor() + " held it (since " + holder + ")");
                    }
                    holders.put(e.key(), e);
                }
                case RELEASED, LOST -> {
                    Event holder = holders.get(e.key());
                    if (holder == null || !holder.actor().equals(e.actor())) {
                        if (e.op() == Event.Op.RELEASED) {
                            violations.add(e + ": released without holding it (holder: "
                                + (holder == null ? "none" : holder.actor()) + ")");
                        }
                    } else {
                        holders.remove(e.key());
                    }
                }
            }
        }
        violations.addAll(tokensIncrease(history).violations());
        return new Verdict("mutual exclusion", history.size(), violations);
    }

    /**
     * For each key, at most {@code limit} actors hold at once (a semaphore's leases); a hold ends
     * with RELEASED or LOST.
     *
     * @param history the events, in order
     * @param limit how many may hold a key at once
     * @return the verdict
     */
    public static Verdict atMost(List<Event> history, int limit) {
        List<String> violations = new ArrayList<>();
        Map<String, java.util.Set<String>> holders = new HashMap<>();
        for (Event e : history) {
            java.util.Set<String> now = holders.computeIfAbsent(e.key(), k -> new java.util.HashSet<>());
            switch (e.op()) {
                case ACQUIRED -> {
                    now.add(e.actor());
                    if (now.size() > limit) {
                        violations.add(e + ": " + now.size() + " holders at once, at most " + limit + " allowed: " + now);
                    }
                }
                case RELEASED, LOST -> now.remove(e.actor());
            }
        }
        return new Verdict("at most " + limit + " holders", history.size(), violations);
    }

    /**
     * For each key, every acquisition's fencing token is larger than every earlier one's.
     *
     * @param history the events, in order
     * @return the verdict
     */
    public static Verdict tokensIncrease(List<Event> history) {
        List<String> violations = new ArrayList<>();
        Map<String, Event> largest = new HashMap<>();
        for (Event e : history) {
            if (e.op() != Event.Op.ACQUIRED) {
                continue;
            }
            Event before = largest.get(e.key());
            if (before != null && e.value() <= before.value()) {
                violations.add(e + ": fencing token " + e.value() + " is not larger than " + before.value() + " of " + before);
            }
            if (before == null || e.value() > before.value()) {
                largest.put(e.key(), e);
            }
        }
        return new Verdict("strictly increasing fencing tokens", history.size(), violations);
    }
}

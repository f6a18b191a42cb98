package dev.baton.test.history;

import dev.baton.test.history.LeadershipHistory.Ended;
import dev.baton.test.history.LeadershipHistory.Event;
import dev.baton.test.history.LeadershipHistory.Granted;
import dev.baton.test.history.LeadershipHistory.Revoked;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides from a {@link LeadershipHistory} whether an election kept its promises.
 *
 * <p>Rules, checked in history order:
 * <ul>
 *   <li><b>At most one leader.</b> When a participant is granted leadership, no other may be
 *       leading — unless the other's term was revoked from outside (recorded with
 *       {@link LeadershipHistory#revoked}) after it began and before this grant: then the old
 *       leader could only hear of its loss from the servers, which may be late; the overlap is
 *       counted as excused, not as a violation.</li>
 *   <li><b>No grant on a revoked node.</b> A term granted after its own token was revoked was
 *       granted on a node that no longer existed.</li>
 *   <li><b>Terms only grow.</b> Each grant's token is larger than every earlier term's; the same
 *       token again is fine only for the same participant (it led again in the same term after a
 *       disconnect).</li>
 *   <li><b>Well formed.</b> A participant is not granted twice without ending in between, and
 *       ends only a term it holds.</li>
 * </ul>
 */
public final class LeadershipChecker {
    private LeadershipChecker() {
    }

    /**
     * The checker's judgement.
     *
     * @param violations what went wrong, in history order (empty when the history is correct)
     * @param terms how many grants the history holds
     * @param excusedOverlaps overlaps explained by a revocation from outside
     * @param stillLeading participants leading at the end of the history, with their terms
     * @param history the judged history
     */
    public record Verdict(List<String> violations, long terms, int excusedOverlaps, Map<String, Long> stillLeading,
                          List<Event> history) {
        /** {@return whether the history showed no violation} */
        public boolean ok() {
            return violations.isEmpty();
        }

        /**
         * Throws an AssertionError that lists the violations and the history, unless the history is correct.
         *
         * @return this verdict
         */
        public Verdict assertAtMostOneLeader() {
            if (!ok()) {
                throw new AssertionError("leadership history broke its promises:\n  " + String.join("\n  ", violations)
                    + "\nhistory:\n" + describe(history));
            }
            return this;
        }

        /**
         * Like {@link #assertAtMostOneLeader()}, and also that no overlap needed an excuse.
         *
         * @return this verdict
         */
        public Verdict assertNeverTwoLeaders() {
            assertAtMostOneLeader();
            if (excusedOverlaps > 0) {
                throw new AssertionError(excusedOverlaps + " overlap(s) between a revoked leader and its successor, "
                    + "where none was expected\nhistory:\n" + describe(history));
            }
            return this;
        }
    }

    /**
     * Judges {@code history} (entries in order).
     *
     * @param history the entries, in order
     * @return the verdict: the violations found, and what the history held
     */
    public static Verdict check(List<Event> history) {
        List<String> violations = new ArrayList<>();
        Map<String, Granted> leading = new LinkedHashMap<>();
        Map<Long, Revoked> revoked = new HashMap<>();
        long highest = -1;
        String highestHolder = null;
        long terms = 0;
        int excused = 0;
        long start = history.isEmpty() ? 0 : history.get(0).nanos();
        for (Event event : history) {
            if (event instanceof Revoked r) {
                revoked.putIfAbsent(r.token(), r);
            } else if (event instanceof Ended e) {
                Granted term = leading.remove(e.participant());
                if (term == null || term.token() != e.token()) {
                    violations.add(at(e, start) + e.participant() + " ended a term it did not hold");
                }
            } else if (event instanceof Granted g) {
                terms++;
                if (leading.containsKey(g.participant())) {
                    violations.add(at(g, start) + g.participant() + " was granted again without ending its term "
                        + leading.get(g.participant()).token());
                }
                if (revoked.containsKey(g.token())) {
                    violations.add(at(g, start) + g.participant() + " was granted term " + g.token()
                        + " after its node was revoked (" + revoked.get(g.token()).how() + ")");
                }
                if (g.token() < highest || (g.token() == highest && !g.participant().equals(highestHolder))) {
                    violations.add(at(g, start) + g.participant() + " was granted term " + g.token()
                        + ", not after the highest earlier term " + highest + " (" + highestHolder + ")");
                }
                for (Granted other : leading.values()) {
                    if (other.participant().equals(g.participant())) {
                        continue;
                    }
                    Revoked why = revoked.get(other.token());
                    if (why != null && why.order() > other.order()) {
                        excused++;
                    } else {
                        violations.add(at(g, start) + "two leaders: " + g.participant() + " (term " + g.token()
                            + ") was granted while " + other.participant() + " (term " + other.token() + ", since "
                            + millis(other.nanos(), start) + ") still led");
                    }
                }
                leading.put(g.participant(), g);
                if (g.token() > highest) {
                    highest = g.token();
                    highestHolder = g.participant();
                }
            }
        }
        Map<String, Long> still = new LinkedHashMap<>();
        leading.forEach((participant, term) -> still.put(participant, term.token()));
        return new Verdict(List.copyOf(violations), terms, excused, still, history);
    }

    /**
     * {@return the history, one entry a line, times in milliseconds from its start}
     *
     * @param history the entries, in order
     */
    public static String describe(List<Event> history) {
        StringBuilder out = new StringBuilder();
        long start = history.isEmpty() ? 0 : history.get(0).nanos();
        for (Event event : history) {
            out.append("  ").append(millis(event.nanos(), start)).append(' ');
            if (event instanceof Granted g) {
                out.append("granted ").append(g.participant()).append(" term ").append(g.token());
            } else if (event instanceof Ended e) {
                out.append("ended   ").append(e.participant()).append(" term ").append(e.token());
            } else if (event instanceof Revoked r) {
                out.append("revoked term ").append(r.token()).append(": ").append(r.how());
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String at(Event event, long start) {
        return "#" + event.order() + " at " + millis(event.nanos(), start) + ": ";
    }

    private static String millis(long nanos, long start) {
        return String.format("%.3f ms", (nanos - start) / 1e6);
    }
}

package dev.baton.test.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A recorded history of two-phase-commit transactions, and the checks that decide from it
 * whether the protocol kept its promises. Thread-safe: coordinators and participants record from
 * any thread; the checks run at the end.
 *
 * <p>Record: {@link #started} once a coordinator's start returned (with the time, on
 * {@link System#nanoTime()}, taken just before it was called); {@link #voted} when a
 * participant's prepare answered (a prepare that threw is an abort vote), before the vote is
 * written; {@link #told} when a participant's handler is told commit or abort, with the
 * participant's incarnation; {@link #reported} when a coordinator learns the decision; and
 * {@link #healthyFrom} once the faults are over. Then:
 *
 * <ul>
 *   <li><b>Atomic commitment</b>: for each transaction, everyone told or reported an outcome was
 *       told the same one.</li>
 *   <li><b>Validity</b>: a transaction anyone was told committed had a commit vote from every
 *       participant, and no abort vote from any.</li>
 *   <li><b>Told once per incarnation</b>: no incarnation of a participant is told about one
 *       transaction twice.</li>
 *   <li><b>Termination</b>: every started transaction was seen decided (its earliest told or
 *       reported event), no later than its deadline — or the end of the faults, if that came
 *       later — plus a stated margin.</li>
 * </ul>
 *
 * <pre>{@code
 * TransactionHistory h = new TransactionHistory();
 * long t0 = System.nanoTime();
 * PendingTransaction tx = coordinator.start(ids, payload, deadline);
 * h.started(tx.id(), ids, deadline, t0);
 * // in the handler: h.voted(tx.id(), tx.participants(), me, true); ... h.told(tx.id(), tx.participants(), me, incarnation, true);
 * h.checkAtomicCommitment().assertOk();
 * }</pre>
 */
public final class TransactionHistory {
    /** What happened. */
    public enum Kind {
        /** A coordinator's start returned. */
        STARTED,
        /** A participant's prepare answered. */
        VOTED,
        /** A participant's handler was told the outcome. */
        TOLD,
        /** A coordinator learned the outcome. */
        REPORTED
    }

    /**
     * One event, in record order.
     *
     * @param order its place in the history (0 first)
     * @param nanos when it was recorded ({@link System#nanoTime()}; for STARTED, just before the start was called)
     * @param kind what happened
     * @param tx the transaction's id
     * @param actor the participant (VOTED, TOLD) or coordinator (STARTED, REPORTED)
     * @param incarnation the participant's incarnation (TOLD), else empty
     * @param commit the vote (VOTED) or the outcome (TOLD, REPORTED); true for STARTED
     * @param participants the transaction's participants, as the actor knew them
     * @param deadline the transaction's deadline (STARTED), else zero
     */
    public record Event(long order, long nanos, Kind kind, String tx, String actor, String incarnation, boolean commit,
                        List<String> participants, Duration deadline) {
        @Override
        public String toString() {
            String what = switch (kind) {
                case STARTED -> "started over " + participants;
                case VOTED -> "voted " + (commit ? "commit" : "abort");
                case TOLD -> "(" + incarnation + ") told " + (commit ? "commit" : "abort");
                case REPORTED -> "reported " + (commit ? "commit" : "abort");
            };
            return "#" + order + " " + actor + " " + what + " for " + tx;
        }
    }

    private final List<Event> events = new ArrayList<>();
    private long healthyFrom = Long.MIN_VALUE;

    /**
     * Records that a coordinator's start returned.
     *
     * @param tx the transaction's id
     * @param coordinator who started it
     * @param participants the participants it names
     * @param deadline its deadline, from which termination is judged
     * @param startedNanos {@link System#nanoTime()} just before start was called
     */
    public synchronized void started(String tx, String coordinator, Collection<String> participants, Duration deadline,
                                     long startedNanos) {
        Objects.requireNonNull(deadline, "deadline");
        events.add(new Event(events.size(), startedNanos, Kind.STARTED, tx, coordinator, "", true, List.copyOf(participants),
            deadline));
    }

    /**
     * Records a participant's answer to prepare.
     *
     * @param tx the transaction's id
     * @param participants the transaction's participants, as the participant was handed them
     * @param participant who answered
     * @param commit true for commit; false for abort, or a prepare that threw
     */
    public void voted(String tx, Collection<String> participants, String participant, boolean commit) {
        add(Kind.VOTED, tx, participant, "", commit, participants);
    }

    /**
     * Records that a participant's handler is told the outcome.
     *
     * @param tx the transaction's id
     * @param participants the transaction's participants, as the participant was handed them
     * @param participant who is told
     * @param incarnation which incarnation of the participant (a new one per restart)
     * @param commit true if told commit, false if told abort
     */
    public void told(String tx, Collection<String> participants, String participant, String incarnation, boolean commit) {
        add(Kind.TOLD, tx, participant, incarnation, commit, participants);
    }

    /**
     * Records that a coordinator learned the decision.
     *
     * @param tx the transaction's id
     * @param coordinator who learned it
     * @param commit true for commit, false for abort
     */
    public void reported(String tx, String coordinator, boolean commit) {
        add(Kind.REPORTED, tx, coordinator, "", commit, List.of());
    }

    /**
     * Records the end of the faults: from then on the ensemble and the clients are healthy.
     *
     * @param nanos when ({@link System#nanoTime()})
     */
    public synchronized void healthyFrom(long nanos) {
        this.healthyFrom = nanos;
    }

    private synchronized void add(Kind kind, String tx, String actor, String incarnation, boolean commit,
                                  Collection<String> participants) {
        events.add(new Event(events.size(), System.nanoTime(), kind, Objects.requireNonNull(tx, "tx"),
            Objects.requireNonNull(actor, "actor"), incarnation, commit, List.copyOf(participants), Duration.ZERO));
    }

    /**
     * Every event so far.
     *
     * @return a copy, in record order
     */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /**
     * How many transactions were started.
     *
     * @return the number of STARTED events
     */
    public synchronized long startedCount() {
        return events.stream().filter(e -> e.kind() == Kind.STARTED).count();
    }

    /**
     * How many distinct transactions someone was told or reported the outcome of, by outcome.
     *
     * @return true (commit) and false (abort) to counts, both present
     */
    public synchronized Map<Boolean, Long> decidedByOutcome() {
        Map<String, Boolean> first = new LinkedHashMap<>();
        events.stream().filter(e -> e.kind() == Kind.TOLD || e.kind() == Kind.REPORTED)
            .forEach(e -> first.putIfAbsent(e.tx(), e.commit()));
        Map<Boolean, Long> counts = new HashMap<>(Map.of(true, 0L, false, 0L));
        first.values().forEach(c -> counts.merge(c, 1L, Long::sum));
        return counts;
    }

    /**
     * Whether every started transaction's participants have each been told its outcome.
     *
     * @return true once each participant of each started transaction was told, by some incarnation
     */
    public boolean everyParticipantTold() {
        return checkEveryParticipantTold().isOk();
    }

    /**
     * Checks that every participant of every started transaction was told its outcome, by some incarnation.
     *
     * @return the verdict, one violation per transaction with participants never told
     */
    public synchronized Verdict checkEveryParticipantTold() {
        Map<String, java.util.Set<String>> told = new HashMap<>();
        for (Event e : byKind(Kind.TOLD)) {
            told.computeIfAbsent(e.tx(), k -> new java.util.HashSet<>()).add(e.actor());
        }
        List<String> violations = new ArrayList<>();
        for (Event start : byKind(Kind.STARTED)) {
            TreeSet<String> untold = new TreeSet<>(start.participants());
            untold.removeAll(told.getOrDefault(start.tx(), java.util.Set.of()));
            if (!untold.isEmpty()) {
                // what each of them did do: whether it ever saw the transaction is where to look first
                List<String> did = new ArrayList<>();
                for (String p : untold) {
                    List<String> own = events.stream().filter(e -> e.tx().equals(start.tx()) && e.actor().equals(p))
                        .map(e -> e.kind() == Kind.VOTED ? "voted " + (e.commit() ? "commit" : "abort") : e.kind().name()).toList();
                    did.add(p + (own.isEmpty() ? " did nothing" : " " + String.join(", ", own)));
                }
                violations.add(start + ": " + untold + " never told (" + String.join("; ", did) + ")");
            }
        }
        return new Verdict("every participant told", events.size(), violations);
    }

    /**
     * Checks atomic commitment: never one party told commit and another abort for the same transaction.
     *
     * @return the verdict, one violation per disagreeing event
     */
    public synchronized Verdict checkAtomicCommitment() {
        List<String> violations = new ArrayList<>();
        Map<String, Event> firstOutcome = new HashMap<>();
        for (Event e : events) {
            if (e.kind() != Kind.TOLD && e.kind() != Kind.REPORTED) {
                continue;
            }
            Event first = firstOutcome.putIfAbsent(e.tx(), e);
            if (first != null && first.commit() != e.commit()) {
                violations.add(e + ", but " + first);
            }
        }
        return new Verdict("atomic commitment", events.size(), violations);
    }

    /**
     * Checks validity: commit only if every participant voted commit (and none voted abort).
     *
     * @return the verdict, one violation per committed transaction without every commit vote
     */
    public synchronized Verdict checkValidity() {
        List<String> violations = new ArrayList<>();
        Map<String, Event> commits = new LinkedHashMap<>();
        for (Event e : events) {
            if ((e.kind() == Kind.TOLD || e.kind() == Kind.REPORTED) && e.commit()) {
                commits.putIfAbsent(e.tx(), e);
            }
        }
        commits.forEach((tx, commit) -> {
            List<String> participants = participantsOf(tx, commit);
            TreeSet<String> commitVotes = new TreeSet<>();
            TreeSet<String> abortVotes = new TreeSet<>();
            for (Event e : events) {
                if (e.kind() == Kind.VOTED && e.tx().equals(tx)) {
                    (e.commit() ? commitVotes : abortVotes).add(e.actor());
                }
            }
            TreeSet<String> missing = new TreeSet<>(participants);
            missing.removeAll(commitVotes);
            if (!missing.isEmpty() || !abortVotes.isEmpty()) {
                violations.add(commit + " although " + (missing.isEmpty() ? "" : missing + " never voted commit")
                    + (!missing.isEmpty() && !abortVotes.isEmpty() ? " and " : "") + (abortVotes.isEmpty() ? "" : abortVotes + " voted abort"));
            }
        });
        return new Verdict("validity", events.size(), violations);
    }

    /**
     * Checks that no incarnation of a participant is told twice about one transaction.
     *
     * @return the verdict, one violation per repeated telling
     */
    public synchronized Verdict checkToldOncePerIncarnation() {
        List<String> violations = new ArrayList<>();
        Map<String, Event> seen = new HashMap<>();
        for (Event e : byKind(Kind.TOLD)) {
            Event before = seen.putIfAbsent(e.tx() + "\n" + e.actor() + "\n" + e.incarnation(), e);
            if (before != null) {
                violations.add(e + ", already " + before);
            }
        }
        return new Verdict("told once per incarnation", events.size(), violations);
    }

    /**
     * Checks termination: every started transaction seen decided by
     * {@code max(start + deadline, healthy from) + margin}; a transaction never seen decided, or
     * seen decided later, is a violation.
     *
     * @param margin how long after its due time a transaction may still be decided
     * @return the verdict
     */
    public synchronized Verdict checkTermination(Duration margin) {
        List<String> violations = new ArrayList<>();
        Map<String, Long> firstSeenDecided = new HashMap<>();
        for (Event e : events) {
            if (e.kind() == Kind.TOLD || e.kind() == Kind.REPORTED) {
                firstSeenDecided.merge(e.tx(), e.nanos(), Math::min);
            }
        }
        for (Event start : byKind(Kind.STARTED)) {
            long due = Math.max(start.nanos() + start.deadline().toNanos(), healthyFrom) + margin.toNanos();
            Long decided = firstSeenDecided.get(start.tx());
            if (decided == null) {
                violations.add(start + ": never seen decided");
            } else if (decided > due) {
                violations.add(start + ": first seen decided " + (decided - due) / 1_000_000 + " ms after its due time (deadline "
                    + start.deadline().toMillis() + " ms, margin " + margin.toMillis() + " ms)");
            }
        }
        return new Verdict("termination within deadline + " + margin.toMillis() + " ms", events.size(), violations);
    }

    private List<String> participantsOf(String tx, Event fallback) {
        for (Event e : events) {
            if (e.kind() == Kind.STARTED && e.tx().equals(tx)) {
                return e.participants();
            }
        }
        for (Event e : events) {
            if (e.tx().equals(tx) && !e.participants().isEmpty()) {
                return e.participants();
            }
        }
        return fallback.participants();
    }

    private List<Event> byKind(Kind kind) {
        return events.stream().filter(e -> e.kind() == kind).toList();
    }
}

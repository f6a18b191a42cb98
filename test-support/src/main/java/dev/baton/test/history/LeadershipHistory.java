package dev.baton.test.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who led an election when: written by a test from the participants' own callbacks (a latch's
 * {@code isLeader}/{@code notLeader}, a selector's {@code takeLeadership} entry and return), and
 * judged afterwards by {@link LeadershipChecker}.
 *
 * <p>Every entry is stamped inside one lock with a sequence number and {@link System#nanoTime()},
 * so entries from many clients and threads of one JVM form one total order consistent with real
 * time. A test that takes a participant's leadership away without its participation (deletes its
 * node, expires its session, deletes the election folder) records that first with
 * {@link #revoked}: the checker then accepts that the old leader hears of it only after the next
 * one was elected — and nothing else.
 *
 * <pre>{@code
 * LeadershipHistory history = new LeadershipHistory();
 * latch.addListener(LeaderLatchListener.of(token -> history.granted("a", token), () -> history.ended("a")));
 * ...
 * history.check().assertAtMostOneLeader();
 * }</pre>
 */
public final class LeadershipHistory {
    /** One entry. {@code order} is its position in the history, {@code nanos} when it was recorded. */
    public sealed interface Event permits Granted, Ended, Revoked {
        /** {@return the entry's position in the history} */
        long order();

        /** {@return {@link System#nanoTime()} when the entry was recorded} */
        long nanos();
    }

    /** {@code participant} started leading in term {@code token}. */
    public record Granted(long order, long nanos, String participant, long token) implements Event {
    }

    /** {@code participant} stopped leading (its term {@code token}, or -1 if it had none open). */
    public record Ended(long order, long nanos, String participant, long token) implements Event {
    }

    /** The test is about to end term {@code token} from outside (operator delete, session expiry, ...). */
    public record Revoked(long order, long nanos, long token, String how) implements Event {
    }

    private final List<Event> events = new ArrayList<>();
    private final Map<String, Long> open = new HashMap<>();

    /**
     * Records that {@code participant} leads now, in term {@code token}.
     *
     * @param participant who
     * @param token the term's token
     */
    public synchronized void granted(String participant, long token) {
        events.add(new Granted(events.size(), System.nanoTime(), participant, token));
        open.put(participant, token);
    }

    /**
     * Records that {@code participant} no longer leads.
     *
     * @param participant who
     */
    public synchronized void ended(String participant) {
        Long token = open.remove(participant);
        events.add(new Ended(events.size(), System.nanoTime(), participant, token == null ? -1 : token));
    }

    /**
     * Records that the test is about to end term {@code token} without its leader's participation.
     *
     * @param token the term being ended
     * @param how how, in words (for the report)
     */
    public synchronized void revoked(long token, String how) {
        events.add(new Revoked(events.size(), System.nanoTime(), token, how));
    }

    /** {@return every entry so far, in order} */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /** {@return participants leading right now (per the history), with their terms} */
    public synchronized Map<String, Long> leaders() {
        return Map.copyOf(open);
    }

    /** {@return how many terms were granted so far} */
    public synchronized long grants() {
        return events.stream().filter(Granted.class::isInstance).count();
    }

    /** {@return the term the most recent grant carries, or -1} */
    public synchronized long lastToken() {
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i) instanceof Granted granted) {
                return granted.token();
            }
        }
        return -1;
    }

    /**
     * Judges the history so far.
     *
     * @return the verdict
     */
    public LeadershipChecker.Verdict check() {
        return LeadershipChecker.check(events());
    }
}

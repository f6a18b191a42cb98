package dev.baton.test.examples;

import dev.baton.test.ClientProcess;
import dev.baton.test.history.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A user's own history and checker, for an invariant none of Baton's checkers states: every
 * increment the servers acknowledged is counted once. {@link dev.baton.test.history.History}'s
 * events are a lock's (acquired, released, lost, ...), so this records its own entries, stamped
 * with {@link Instant} so that entries from client processes compare with the test JVM's
 * (every process reads the one kernel clock), and judges them into a public {@link Verdict}.
 */
final class CounterHistory {
    /** What an actor saw of one increment: its value when {@code acknowledged}, else why it failed. */
    record Entry(String actor, Instant time, boolean acknowledged, long value, String failure) {
        @Override
        public String toString() {
            return actor + (acknowledged ? " acknowledged " + value : " failed (" + failure + ")");
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    synchronized void acknowledged(String actor, long value) {
        entries.add(new Entry(actor, Instant.now(), true, value, null));
    }

    synchronized void failed(String actor, String why) {
        entries.add(new Entry(actor, Instant.now(), false, 0, why));
    }

    /**
     * Records what a {@link CounterWorkerMain} reported ({@code ack <value>} or {@code failed <why>}),
     * and its process's end: a process killed (or ended) between a write and its report leaves an
     * increment applied that nobody acknowledged, so its end counts as one increment of unknown outcome.
     */
    synchronized void record(ClientProcess.Message message) {
        switch (message.kind()) {
            case "ack" -> entries.add(new Entry(message.process(), message.time(), true, message.longField(0), null));
            case "failed" -> entries.add(new Entry(message.process(), message.time(), false, 0, message.field(0)));
            case ClientProcess.KILLED, ClientProcess.EXITED ->
                entries.add(new Entry(message.process(), message.time(), false, 0, message.kind() + " mid-increment?"));
            default -> { } // lifecycle and progress messages
        }
    }

    synchronized List<Entry> entries() {
        return entries.stream().sorted(Comparator.comparing(Entry::time)).toList();
    }

    synchronized long acknowledgedBy(String actor) {
        return entries.stream().filter(e -> e.acknowledged() && e.actor().equals(actor)).count();
    }

    synchronized long acknowledgedAfter(String actor, Instant time) {
        return entries.stream().filter(e -> e.acknowledged() && e.actor().equals(actor) && e.time().isAfter(time)).count();
    }

    /**
     * Judges a run whose counter ended at {@code finalValue}: no value acknowledged twice (one of
     * the two was overwritten, so an acknowledged increment was lost), none above the final value
     * (overwritten by a lower one), and no more increments applied than were acknowledged or
     * failed with an unknown outcome (an increment applied twice).
     */
    static Verdict check(List<Entry> entries, long finalValue) {
        List<String> violations = new ArrayList<>();
        Instant start = entries.isEmpty() ? Instant.EPOCH : entries.get(0).time();
        Map<Long, Entry> byValue = new HashMap<>();
        long acknowledged = 0;
        long failed = 0;
        List<Entry> above = new ArrayList<>();
        Entry lastAtOrBelowFinal = null;
        for (Entry e : entries) {
            if (!e.acknowledged()) {
                failed++;
                continue;
            }
            acknowledged++;
            Entry first = byValue.putIfAbsent(e.value(), e);
            if (first != null) {
                violations.add("value " + e.value() + " acknowledged twice: to " + first.actor() + " at " + at(first, start)
                    + " and to " + e.actor() + " at " + at(e, start) + "; one of the two increments was overwritten."
                    + " Around it: " + around(entries, e, start));
            }
            if (e.value() > finalValue) {
                above.add(e);
            } else {
                lastAtOrBelowFinal = e;
            }
        }
        if (!above.isEmpty()) {
            // one violation for the cause, not one per overwritten value: name the write that went back
            Entry highest = above.stream().max(Comparator.comparingLong(Entry::value)).orElseThrow();
            violations.add("the counter ended at " + finalValue + ", below " + above.size() + " acknowledged value(s) (up to "
                + highest.value() + ", acknowledged to " + highest.actor() + " at " + at(highest, start) + ")"
                + (lastAtOrBelowFinal == null ? ""
                    : "; the last acknowledgement at or below it: " + lastAtOrBelowFinal + " at "
                        + at(lastAtOrBelowFinal, start) + ". Around it: " + around(entries, lastAtOrBelowFinal, start)));
        }
        if (finalValue > acknowledged + failed) {
            violations.add("the counter ended at " + finalValue + " but only " + acknowledged + " increments were "
                + "acknowledged and " + failed + " failed or were cut short: an increment was applied twice");
        }
        return new Verdict("every acknowledged increment counted once", entries.size(), violations);
    }

    private static String at(Entry e, Instant start) {
        return "+" + Duration.between(start, e.time()).toMillis() + " ms";
    }

    /** The entries just before and after {@code e}, so a violation can be read without the whole history. */
    private static String around(List<Entry> entries, Entry e, Instant start) {
        int i = entries.indexOf(e);
        List<String> shown = new ArrayList<>();
        for (Entry near : entries.subList(Math.max(0, i - 3), Math.min(entries.size(), i + 2))) {
            shown.add(at(near, start) + " " + near);
        }
        return String.join(", ", shown);
    }
}

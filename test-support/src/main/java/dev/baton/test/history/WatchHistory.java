package dev.baton.test.history;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What the watchers of a numbered value (a release number, a version) saw, and the checker of
 * the promise a watch makes: a watcher never sees a value older than one it has already seen,
 * and once the writes stop, every watcher ends on the last value written. Intermediate values may
 * be skipped.
 *
 * <p>Each watcher records what it is told, as it is told ({@link #seen}); the test decides the
 * final value from the servers once the writers have stopped and passes it to {@link #check}.
 *
 * <pre>{@code
 * WatchHistory history = new WatchHistory();
 * store.watchPrefix("", update -> history.seen("watcher-1", update.release()));
 * ... writers publish releases under faults, then stop ...
 * long last = ...;                                  // read from the servers
 * await().until(() -> history.allAt(watchers, last));
 * history.check(watchers, last).assertOk();
 * }</pre>
 */
public final class WatchHistory {
    /**
     * One thing a watcher was told.
     *
     * @param order position in the history
     * @param nanos {@link System#nanoTime()} when recorded
     * @param watcher who was told
     * @param value the value it was told (larger is newer)
     */
    public record Seen(long order, long nanos, String watcher, long value) {
    }

    private final List<Seen> entries = new ArrayList<>();
    private final Map<String, Long> latest = new HashMap<>();

    /** An empty history. */
    public WatchHistory() {
    }

    /**
     * Records that {@code watcher} was told {@code value}.
     *
     * @param watcher who was told
     * @param value what it was told (larger is newer)
     */
    public synchronized void seen(String watcher, long value) {
        Objects.requireNonNull(watcher, "watcher");
        entries.add(new Seen(entries.size(), System.nanoTime(), watcher, value));
        latest.put(watcher, value);
    }

    /**
     * The last value {@code watcher} was told.
     *
     * @param watcher a watcher
     * @return its last value, or empty if it was told nothing
     */
    public synchronized OptionalLong last(String watcher) {
        Long value = latest.get(watcher);
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    /**
     * Whether every one of {@code watchers} was last told {@code value}.
     *
     * @param watchers the watchers
     * @param value the value each must have been told last
     * @return true if each of them was
     */
    public synchronized boolean allAt(Collection<String> watchers, long value) {
        return watchers.stream().allMatch(w -> latest.containsKey(w) && latest.get(w) == value);
    }

    /** {@return everything every watcher was told, in the order it was recorded} */
    public synchronized List<Seen> entries() {
        return List.copyOf(entries);
    }

    /** {@return how many things the watchers were told, all together} */
    public synchronized int size() {
        return entries.size();
    }

    /**
     * Judges the history: for each of {@code watchers}, its values never go down, none is past
     * {@code finalValue} (nothing was written after it), and its last one is {@code finalValue}.
     * A watcher that was told nothing at all ended stale.
     *
     * @param watchers the watchers to judge (others in the history are ignored)
     * @param finalValue the last value written, read from the servers once the writes stopped
     * @return the violations, one line each, with the order and time of the entry at fault
     */
    public Verdict check(Collection<String> watchers, long finalValue) {
        List<Seen> history = entries();
        Map<String, Seen> previous = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        long start = history.isEmpty() ? 0 : history.get(0).nanos();
        for (Seen s : history) {
            if (!watchers.contains(s.watcher())) {
                continue;
            }
            Seen before = previous.get(s.watcher());
            if (before != null && s.value() < before.value()) {
                violations.add(at(s, start) + s.watcher() + " went back from " + before.value() + " (#" + before.order() + ") to " + s.value());
            }
            if (s.value() > finalValue) {
                violations.add(at(s, start) + s.watcher() + " was told " + s.value() + ", past the final value " + finalValue);
            }
            previous.put(s.watcher(), s);
        }
        for (String watcher : watchers) {
            Seen last = previous.get(watcher);
            if (last == null) {
                violations.add(watcher + " was told nothing; the final value is " + finalValue);
            } else if (last.value() != finalValue) {
                violations.add(watcher + " ended stale on " + last.value() + " (#" + last.order() + ", " + millis(last.nanos(), start)
                    + "); the final value is " + finalValue);
            }
        }
        return new Verdict("every watcher ends on the final value and never goes back", history.size(), violations);
    }

    private static String at(Seen s, long start) {
        return "#" + s.order() + " at " + millis(s.nanos(), start) + ": ";
    }

    private static String millis(long nanos, long start) {
        return String.format("%.1f ms", (nanos - start) / 1e6);
    }
}

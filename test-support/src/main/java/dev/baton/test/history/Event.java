package dev.baton.test.history;

import java.util.Objects;

/**
 * One thing an actor did or saw, as recorded in a {@link History}.
 *
 * @param index position in the history: the order in which the events were recorded. Record an
 *     event while the thing it describes is true (an entry after the lock is held, an exit
 *     before it is released) and this order is the real-time order checkers rely on.
 * @param nanos {@link System#nanoTime()} when it was recorded
 * @param actor who (a thread, a client, a process)
 * @param op what happened
 * @param key what it happened to (a lock's path, a queue's name)
 * @param value what goes with it (a fencing token, an item), or 0
 */
public record Event(long index, long nanos, String actor, Op op, String key, long value) {
    /** What an event says happened. Checkers look at the ops they understand and skip the rest. */
    public enum Op {
        /** The actor now holds {@code key}, with fencing token {@code value}. */
        ACQUIRED,
        /** The actor is about to release {@code key}: it no longer acts as its holder. */
        RELEASED,
        /** The actor learned that its hold on {@code key} was lost; it no longer acts as its holder. */
        LOST
    }

    /**
     * Checks that actor, op and key are given.
     *
     * @param index position in the history
     * @param nanos {@link System#nanoTime()} when it was recorded
     * @param actor who
     * @param op what happened
     * @param key what it happened to
     * @param value what goes with it, or 0
     */
    public Event {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(key, "key");
    }

    @Override
    public String toString() {
        return "#" + index + " " + actor + " " + op + " " + key + (value != 0 ? " (" + value + ")" : "");
    }
}

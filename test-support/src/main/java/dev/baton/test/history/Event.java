package dev.baton.test.history;

import java.util.List;
import java.util.Objects;

/**
 * One thing an actor did or saw, as recorded in a {@link History}.
 *
 * @param index position in the history: the order in which the events were recorded. Record an
 *     event while the thing it describes is true (an entry after the lock is held, an exit
 *     before it is released) and this order is the real-time order checkers rely on.
 * @param nanos {@link System#nanoTime()} when it was recorded (for {@link Op#PAUSED}: when the
 *     pause began)
 * @param actor who (a thread, a client, a process)
 * @param op what happened
 * @param key what it happened to (a lock's path, a queue's name)
 * @param value what goes with it (a fencing token, an item), or 0; for {@link Op#PAUSED} the
 *     {@link System#nanoTime()} at which the pause ended
 * @param viewZxid for {@link Op#ACQUIRED}: the last zxid the holder's client had seen when it
 *     was granted (see {@link Zxids#lastSeen}), or 0 if not known. A grant decided on a listing
 *     that no longer showed an earlier holder's node comes from a reply whose zxid is at least
 *     that node's deletion, so {@link BoundedExclusion} compares the two to tell a grant after
 *     the servers ended the earlier hold from a double grant, without trusting clocks.
 * @param nodes for {@link Op#ACQUIRED}: the paths of the nodes the hold rests on, if known (else
 *     a checker finds the node by the token, its creation zxid)
 * @param shared for {@link Op#ACQUIRED}: a shared hold (a read lock), which conflicts only with
 *     exclusive ones
 */
public record Event(long index, long nanos, String actor, Op op, String key, long value, long viewZxid, List<String> nodes,
                    boolean shared) {
    /** What an event says happened. Checkers look at the ops they understand and skip the rest. */
    public enum Op {
        /** The actor now holds {@code key}, with fencing token {@code value}. */
        ACQUIRED,
        /** The actor is about to release {@code key}: it no longer acts as its holder. */
        RELEASED,
        /** The actor learned that its hold on {@code key} was lost; it no longer acts as its holder. */
        LOST,
        /**
         * The actor's whole process was stopped (SIGSTOP, a frozen VM, a stop-the-world pause)
         * from {@code nanos} to {@code value}: nothing in it could run, so nothing in it could
         * hear of a loss. A holder that believes past its session's end because of such a pause is
         * not excused by the loss-signal bound; it is the fencing token's job, and the checker
         * then demands that the fenced resource refused the paused holder's stale writes
         * ({@link #FENCED_WRITE} / {@link #FENCE_REFUSED}). Not for network faults: a frozen
         * proxy (the in-JVM nemesis's PAUSE_CLIENT) leaves the process running and able to
         * notice, so it is judged by the bound like any partition.
         */
        PAUSED,
        /** A fenced resource {@code key} accepted a write by the actor with token {@code value}. */
        FENCED_WRITE,
        /** A fenced resource {@code key} refused a write by the actor with the stale token {@code value}. */
        FENCE_REFUSED
    }

    /**
     * Checks that actor, op and key are given, and keeps an unmodifiable copy of the nodes.
     *
     * @param index position in the history
     * @param nanos {@link System#nanoTime()} when it was recorded
     * @param actor who
     * @param op what happened
     * @param key what it happened to
     * @param value what goes with it, or 0
     * @param viewZxid the last zxid the holder's client had seen when granted, or 0
     * @param nodes the paths of the nodes the hold rests on; null is taken as none
     * @param shared whether the hold is shared (a read lock)
     * @throws NullPointerException if {@code actor}, {@code op} or {@code key} is null, or
     *     {@code nodes} holds a null
     */
    public Event {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(key, "key");
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /**
     * An event without a view zxid, nodes or sharing: an exclusive hold whose node a checker finds
     * by its token, or any event that is not a grant.
     *
     * @param index position in the history
     * @param nanos {@link System#nanoTime()} when it was recorded
     * @param actor who
     * @param op what happened
     * @param key what it happened to
     * @param value what goes with it, or 0
     * @throws NullPointerException if {@code actor}, {@code op} or {@code key} is null
     */
    public Event(long index, long nanos, String actor, Op op, String key, long value) {
        this(index, nanos, actor, op, key, value, 0, List.of(), false);
    }

    @Override
    public String toString() {
        return "#" + index + " " + actor + " " + op + (shared ? " (shared)" : "") + " " + key
            + (value != 0 && op != Op.PAUSED ? " (" + value + ")" : "");
    }
}

package dev.baton.test.history;

import java.util.ArrayList;
import java.util.List;

/**
 * An append-only, thread-safe log of {@link Event}s, recorded by the actors of a test as they go
 * and judged afterwards by a checker ({@link MutualExclusion}, {@link BoundedExclusion}, ...).
 *
 * <pre>{@code
 * History history = new History();
 * lock.acquire();
 * history.acquired("worker-1", "/locks/a", lock.fencingToken());
 * ...                                     // the critical section
 * history.released("worker-1", "/locks/a");
 * lock.release();
 * MutualExclusion.check(history.events()).assertOk();
 * }</pre>
 *
 * <p><b>Process pauses.</b> A harness that stops a client's whole process (SIGSTOP of a client
 * JVM, and SIGCONT after) records it with {@link #paused(String, long, long)}, with the
 * {@link System#nanoTime()} of both ends as this JVM saw them. Checkers treat a holder's belief
 * that outlasts its session because of such a pause as the fencing token's job, not as a late
 * loss signal: see {@link Event.Op#PAUSED}.
 */
public final class History {
    private final List<Event> events = new ArrayList<>();

    /**
     * Records an event and returns it.
     *
     * @param actor who
     * @param op what happened
     * @param key what it happened to
     * @param value what goes with it, or 0
     * @return the event, as recorded
     */
    public synchronized Event record(String actor, Event.Op op, String key, long value) {
        return add(actor, op, key, value, 0, List.of(), false, System.nanoTime());
    }

    private Event add(String actor, Event.Op op, String key, long value, long viewZxid, List<String> nodes, boolean shared,
                      long nanos) {
        Event event = new Event(events.size(), nanos, actor, op, key, value, viewZxid, nodes, shared);
        events.add(event);
        return event;
    }

    /**
     * {@code actor} holds {@code key} now, with {@code fencingToken}. Call it after the acquisition returned.
     *
     * @param actor who
     * @param key the lock's path
     * @param fencingToken the hold's token
     * @return the event, as recorded
     */
    public Event acquired(String actor, String key, long fencingToken) {
        return record(actor, Event.Op.ACQUIRED, key, fencingToken);
    }

    /**
     * {@code actor} holds {@code key} now, with {@code fencingToken}, granted on a view of the
     * servers up to {@code viewZxid} (see {@link Zxids#lastSeen}), resting on {@code nodes}
     * (empty: found by the token), {@code shared} or exclusive.
     *
     * @param actor who
     * @param key the lock's path
     * @param fencingToken the grant's fencing token
     * @param viewZxid the last zxid the actor's client had seen at the grant
     * @param nodes the nodes the grant rests on
     * @param shared whether the grant is shared (a read lock) or exclusive
     * @return the event, as recorded
     */
    public synchronized Event acquired(String actor, String key, long fencingToken, long viewZxid, List<String> nodes,
                                       boolean shared) {
        return add(actor, Event.Op.ACQUIRED, key, fencingToken, viewZxid, nodes, shared, System.nanoTime());
    }

    /**
     * {@code actor} stops acting as the holder of {@code key}. Call it before the release.
     *
     * @param actor who
     * @param key the lock's path
     * @return the event, as recorded
     */
    public Event released(String actor, String key) {
        return record(actor, Event.Op.RELEASED, key, 0);
    }

    /**
     * {@code actor} learned its hold on {@code key} was lost.
     *
     * @param actor who
     * @param key the lock's path
     * @return the event, as recorded
     */
    public Event lost(String actor, String key) {
        return record(actor, Event.Op.LOST, key, 0);
    }

    /**
     * {@code actor}'s process was stopped from {@code fromNanos} to {@code toNanos}
     * ({@link System#nanoTime()} of this JVM); see {@link Event.Op#PAUSED}. Record it once the
     * process runs again.
     *
     * @param actor who
     * @param fromNanos when the pause began
     * @param toNanos when it ended
     * @return the event, as recorded
     */
    public synchronized Event paused(String actor, long fromNanos, long toNanos) {
        if (toNanos - fromNanos < 0) {
            throw new IllegalArgumentException("a pause must end after it began: from " + fromNanos + " to " + toNanos);
        }
        return add(actor, Event.Op.PAUSED, "process", toNanos, 0, List.of(), false, fromNanos);
    }

    /**
     * A fenced resource {@code resource} accepted (or refused) {@code actor}'s write with {@code token}.
     *
     * @param actor who wrote
     * @param resource the fenced resource
     * @param token the token the write carried
     * @param accepted whether the resource accepted it
     * @return the event, as recorded
     */
    public Event fencedWrite(String actor, String resource, long token, boolean accepted) {
        return record(actor, accepted ? Event.Op.FENCED_WRITE : Event.Op.FENCE_REFUSED, resource, token);
    }

    /** {@return every event so far, in order} */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /** {@return how many events there are} */
    public synchronized int size() {
        return events.size();
    }

    /**
     * {@return how many events of {@code op} there are}
     *
     * @param op the kind of event
     */
    public synchronized long count(Event.Op op) {
        return events.stream().filter(e -> e.op() == op).count();
    }
}

package dev.baton.test.history;

import java.util.ArrayList;
import java.util.List;

/**
 * An append-only, thread-safe log of {@link Event}s, recorded by the actors of a test as they go
 * and judged afterwards by a checker ({@link MutualExclusion}, ...).
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
        Event event = new Event(events.size(), System.nanoTime(), actor, op, key, value);
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

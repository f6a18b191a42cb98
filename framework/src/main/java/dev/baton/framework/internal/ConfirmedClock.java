package dev.baton.framework.internal;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The rule of {@link LeaderContact}'s clock on plain numbers (nanoseconds on the monotonic clock,
 * and the session timeout {@code t}), without threads or time sources, so it can be checked
 * case by case. Not thread-safe: {@link LeaderContact} guards it.
 */
final class ConfirmedClock {
    /** Confirmed round trips not yet settled by a later one, oldest first. */
    private final Deque<RoundTrip> unsettled = new ArrayDeque<>();
    private long session;
    private long contactNanos;

    private record RoundTrip(long sentNanos, long repliedNanos) {
    }

    ConfirmedClock(long nowNanos, long t) {
        this.contactNanos = longAgo(nowNanos, t);
    }

    /** How late a touch may reach the leader: half a tick, at most a quarter of the session timeout {@code t}. */
    static long pingLag(long t) {
        return t / 4;
    }

    /** The clock for {@code sessionId}; for another session, a time more than a session timeout ago. */
    long contactNanos(long sessionId, long nowNanos, long t) {
        return sessionId == session ? contactNanos : longAgo(nowNanos, t);
    }

    /** The leader answered a request of {@code sessionId} sent at {@code sentNanos}, at {@code repliedNanos}. */
    void confirmed(long sessionId, long sentNanos, long repliedNanos, long nowNanos, long t) {
        if (sessionId != session) {
            session = sessionId;
            contactNanos = longAgo(nowNanos, t);
            unsettled.clear();
        }
        // touches older than this reached the leader ahead of the round trip just confirmed
        long settledBy = sentNanos - pingLag(t);
        // ZooKeeper's client pings after a third of the session timeout of silence: some touch is that recent
        long bound = settledBy - t / 3;
        while (!unsettled.isEmpty() && unsettled.peekFirst().repliedNanos - settledBy <= 0) {
            bound = Math.max(bound, unsettled.pollFirst().sentNanos);
        }
        contactNanos = Math.max(contactNanos, bound);
        RoundTrip last = unsettled.peekLast();
        // one kept per eighth of a session timeout is enough to settle by, and bounds the queue
        if (last == null || repliedNanos - last.repliedNanos >= t / 8) {
            unsettled.addLast(new RoundTrip(sentNanos, repliedNanos));
        }
    }

    private static long longAgo(long nowNanos, long t) {
        return nowNanos - 2 * t;
    }
}

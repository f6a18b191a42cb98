package dev.baton.framework.cache;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link SnapshotCache}'s books of the events of its subtree: which are not yet answered for by
 * a read, which reads are in flight, and where the latest fence event stands. The rule they serve
 * is the cache's (see its class comment): a read answers for an event if it was sent after that
 * event arrived, or after any event of the same transaction or a later one arrived. Guarded by
 * the cache's lock.
 */
final class EventBook {
    /** An event of a path: its receipt number, and its transaction's zxid (-1 if the server did not say). */
    private record Mark(long receipt, long zxid) {
    }

    private final String fence;
    /** Per path, its events not yet covered by an answered read, oldest first. */
    private final Map<String, ArrayDeque<Mark>> uncovered = new HashMap<>();
    /** Per path, the zxid known when its latest read in flight was sent. */
    private final Map<String, Long> inFlight = new HashMap<>();
    /** Fence events seen so far: a load compares the count at its start and its end. */
    private long fenceEvents;
    /** Events seen so far (the receipt number of the latest). */
    private long received;
    /** The receipt number of the latest fence event. */
    private long fenceReceived;
    /** The highest zxid of an event seen so far, -1 before any. */
    private long maxZxid = -1;

    EventBook(String fence) {
        this.fence = fence;
    }

    /** Any event, even of a node below the fence, says its server has applied transaction {@code zxid}. */
    void applied(long zxid) {
        maxZxid = Math.max(maxZxid, zxid);
    }

    /**
     * Books an event of {@code path} in the subtree.
     *
     * @return whether it needs a read of its own: false when a read of the path in flight was sent
     *     after its transaction was applied, and so will answer for it
     */
    boolean arrived(String path, long zxid) {
        Mark mark = new Mark(++received, zxid);
        uncovered.computeIfAbsent(path, p -> new ArrayDeque<>()).addLast(mark);
        if (path.equals(fence)) {
            fenceEvents++;
            fenceReceived = mark.receipt();
        }
        Long sentAt = inFlight.get(path);
        return sentAt == null || zxid < 0 || zxid > sentAt;
    }

    /** The receipt number of the latest event: a read or load sent now answers for every event up to it. */
    long received() {
        return received;
    }

    /** The highest zxid of an event seen so far, -1 before any: a read sent now answers for every event up to it. */
    long maxZxid() {
        return maxZxid;
    }

    /** How many fence events have arrived. */
    long fenceEvents() {
        return fenceEvents;
    }

    /** Reads of {@code paths} were sent knowing transactions up to {@code sentZxid}. */
    void sent(List<String> paths, long sentZxid) {
        for (String p : paths) {
            inFlight.put(p, sentZxid);
        }
    }

    /** The reads of {@code paths} sent at {@code sentZxid} were answered (or failed): none of them is in flight now, unless sent again since. */
    void returned(List<String> paths, long sentZxid) {
        for (String p : paths) {
            if (inFlight.getOrDefault(p, Long.MIN_VALUE) == sentZxid) {
                inFlight.remove(p);
            }
        }
    }

    /** The connection changed: replies to the reads in flight are thrown away, so none answers for anything. */
    void forgetInFlight() {
        inFlight.clear();
    }

    /**
     * Forgets the events of {@code path} that a read sent after event {@code receipt}, or after an
     * event of transaction {@code zxid} (or a later one), has answered for: the server applied
     * their transactions before it answered.
     */
    void cover(String path, long receipt, long zxid) {
        ArrayDeque<Mark> marks = uncovered.get(path);
        if (marks == null) {
            return;
        }
        while (!marks.isEmpty() && (marks.peekFirst().receipt() <= receipt || (marks.peekFirst().zxid() >= 0
            && marks.peekFirst().zxid() <= zxid))) {
            marks.pollFirst();
        }
        if (marks.isEmpty()) {
            uncovered.remove(path);
        }
    }

    /** A load read every node after event {@code receipt} and transaction {@code zxid}: forgets what it answered for. */
    void coverAll(long receipt, long zxid) {
        for (String path : List.copyOf(uncovered.keySet())) {
            cover(path, receipt, zxid);
        }
    }

    /**
     * Whether every event that came before the latest fence event has been answered for by a read
     * sent after it (or after another event of its transaction): then the working copy holds each
     * fenced transaction whole or not at all (see the cache's class comment).
     */
    boolean coveredUpToFence() {
        for (ArrayDeque<Mark> marks : uncovered.values()) {
            if (marks.peekFirst().receipt() <= fenceReceived) {
                return false;
            }
        }
        return true;
    }
}

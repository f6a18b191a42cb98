package dev.baton.framework.contention;

import java.time.Duration;
import java.util.Objects;

/**
 * The shared-ticket mode of {@code InterProcessMutex}, {@code InterProcessSemaphoreMutex},
 * {@code InterProcessSemaphoreV2} and the read/write lock ({@code InterProcessReadWriteLock}): the
 * threads of one client that use one lock object stand in the lock's line with one node between
 * them (one per lease in use, for a semaphore), and hand the lock to each other in memory while the
 * process holds it (a read side's readers hold at once, on one read node). This page describes the
 * mutex; the others' constructors say what differs.
 *
 * <p>Without it, each of eight threads of one service creates its own node and waits for
 * ZooKeeper to hand it the lock: every hand-off between two threads of the same process costs a
 * delete, a notification and a listing (a few network round trips). With it, the first thread's
 * node stands in line for the process; once it holds, a release by one thread grants the lock to
 * the next waiting thread of the same mutex object, first come first served, without a request.
 *
 * <p>Fairness to other processes. A process keeps its node for at most {@link #handOffLimit()}
 * local hand-offs or {@link #tenureLimit()} (from the moment its node was granted), whichever
 * comes first, <em>once someone else waits</em>. It finds out at the node's first local hand-off:
 * it lists the lock's folder then, in the background (once per node; a children watch then
 * reports a newcomer), so the answer is in before the limits are reached. The first release
 * after a limit is reached, once another node is known to be in line, gives the node back even
 * if a local thread waits; the process's remaining threads take a new node, at the back of the
 * line. While nobody else waits it keeps handing off. A waiter of another process therefore
 * waits, beyond what it would wait behind one hold, at most for the tenure limit plus one local
 * hold, once the process has noticed it (the listing's round trip, or the watch's event, both
 * usually inside the tenure). A node that is never handed on lists nothing.
 *
 * <p>Fencing. Every hold still gets a token strictly greater than every earlier hold's, across
 * processes: the pair {@link FencingToken} (the node's creation zxid, the hand-off number on that
 * node), available as {@code LockLease.holdToken()} and {@code InterProcessMutex.holdToken()} (recipes-lock).
 * The {@code long} {@code fencingToken()} stays the node's creation zxid, so it is shared by the
 * local holds on one node (see {@link FencingToken} for what that means for a store).
 *
 * <pre>{@code
 * InterProcessMutex mutex = new InterProcessMutex(client, "/locks/counters", SharedTicket.defaults());
 * // share `mutex` between the threads of this service
 * }</pre>
 *
 * @param handOffLimit how many local hand-offs one node may make, once someone else waits (at least 1)
 * @param tenureLimit how long one node may be kept, once someone else waits (positive)
 */
public record SharedTicket(int handOffLimit, Duration tenureLimit) {
    /** The default {@link #handOffLimit()}: 100 hand-offs. */
    public static final int DEFAULT_HAND_OFF_LIMIT = 100;
    /** The default {@link #tenureLimit()}: 10 ms. */
    public static final Duration DEFAULT_TENURE_LIMIT = Duration.ofMillis(10);

    /**
     * Checks the limits.
     *
     * @param handOffLimit how many local hand-offs one node may make, once someone else waits
     * @param tenureLimit how long one node may be kept, once someone else waits
     * @throws IllegalArgumentException if {@code handOffLimit} is below 1 or {@code tenureLimit} is not positive
     */
    public SharedTicket {
        Objects.requireNonNull(tenureLimit, "tenureLimit");
        if (handOffLimit < 1) {
            throw new IllegalArgumentException("handOffLimit must be at least 1, was " + handOffLimit);
        }
        if (tenureLimit.isNegative() || tenureLimit.isZero()) {
            throw new IllegalArgumentException("tenureLimit must be positive, was " + tenureLimit);
        }
    }

    /** {@return the mode with the default limits: {@value #DEFAULT_HAND_OFF_LIMIT} hand-offs or 10 ms} */
    public static SharedTicket defaults() {
        return new SharedTicket(DEFAULT_HAND_OFF_LIMIT, DEFAULT_TENURE_LIMIT);
    }

    /**
     * {@return these limits with another hand-off limit}
     *
     * @param limit how many local hand-offs one node may make, once someone else waits (at least 1)
     */
    public SharedTicket withHandOffLimit(int limit) {
        return new SharedTicket(limit, tenureLimit);
    }

    /**
     * {@return these limits with another tenure limit}
     *
     * @param limit how long one node may be kept, once someone else waits (positive)
     */
    public SharedTicket withTenureLimit(Duration limit) {
        return new SharedTicket(handOffLimit, limit);
    }
}

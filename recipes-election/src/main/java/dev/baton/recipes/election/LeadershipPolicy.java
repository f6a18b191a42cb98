package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.Ticket;
import java.time.Duration;

/**
 * When a leader stops trusting its leadership. Chosen per recipe; the default follows the
 * client's {@link ErrorPolicy} (STANDARD: {@link #CONNECTION}, SESSION_ONLY: {@link #SESSION}).
 *
 * <p>Whatever the policy, a leader steps down at once when its node is deleted or its session
 * is known to be gone. The policies differ only in what they do while the client is disconnected
 * and cannot tell whether its session is alive. READ_ONLY counts as disconnected, under every
 * policy: a server cut off from its quorum answers reads, but cannot keep the session alive on
 * the quorum, which may expire it and elect someone else (see {@link ErrorPolicy#suspendsHolds}).
 * See {@code docs/election.md} for the guarantees of each under pauses and partitions.
 */
public enum LeadershipPolicy {
    /**
     * Step down as soon as the connection is suspended (or READ_ONLY), and, while connected, when no
     * round trip the ensemble's leader confirmed is recent enough (the server the client talks to
     * may be a follower cut off from the leader, still answering until its own timeout: see
     * {@link BatonClient#leaderContactNanos()}); lead again (same term, same token) if the same
     * session reconnects. Never two leaders through a partition, at the price of a step-down on
     * every short disconnect.
     */
    CONNECTION,
    /**
     * Keep leading through a disconnect (or a read-only server); step down only when the session
     * is lost, which the client reports a session timeout after the disconnect. No spurious
     * step-downs, but a partitioned leader may still believe it leads for up to a session timeout
     * after another participant was elected: fence the resources it acts on with the token.
     */
    SESSION,
    /**
     * Keep leading through a short disconnect (or a short stay on a read-only server, whose answers
     * are not contact with the quorum), but step down before the ensemble's leader could expire the
     * session: at the last round trip the leader confirmed ({@link BatonClient#leaderContactNanos()},
     * kept fresh by a sync every quarter of the session timeout while leading) plus the negotiated
     * session timeout, minus a safety margin, on the monotonic clock, whether connected or not. A
     * partitioned leader is gone before anybody else can be elected, without stepping down on every
     * blip, even when the server it talks to is a follower that does not know yet that it is cut
     * off. A process paused (GC, VM freeze) for longer than the margin can still overlap: keep
     * fencing.
     */
    LEASE;

    /** The smallest lease margin the default picks: covers timer and callback latency. */
    static final Duration MIN_DEFAULT_MARGIN = Holding.MIN_DEFAULT_MARGIN;

    /**
     * {@return the policy matching a client's error policy}
     *
     * @param errorPolicy a client's error policy
     */
    public static LeadershipPolicy of(ErrorPolicy errorPolicy) {
        return switch (errorPolicy) {
            case STANDARD -> CONNECTION;
            case SESSION_ONLY -> SESSION;
        };
    }

    /**
     * {@return whether entering {@code state} by itself ends leadership under this policy (LEASE ends it
     * later, at the lease deadline, if the disconnect lasts)}
     *
     * @param state the connection state entered
     */
    public boolean stepsDownOn(ConnectionState state) {
        return switch (state) {
            case LOST -> true;
            case SUSPENDED, READ_ONLY -> this == CONNECTION;
            case CONNECTED, RECONNECTED -> false;
        };
    }

    /**
     * {@return the lease margin used when none is configured (and the margin of CONNECTION): a tenth
     * of the negotiated session timeout, at least {@link #MIN_DEFAULT_MARGIN}}
     *
     * @param negotiatedSessionTimeout the session timeout the servers granted
     */
    public static Duration defaultLeaseMargin(Duration negotiatedSessionTimeout) {
        return Holding.defaultMargin(negotiatedSessionTimeout);
    }

    /** Starts watching a granted ticket the way this policy asks. */
    Holding monitor(BatonClient client, Ticket ticket, Duration leaseMargin) {
        return switch (this) {
            case CONNECTION -> Holding.monitor(client, ticket, ErrorPolicy.STANDARD);
            case SESSION -> Holding.monitor(client, ticket, ErrorPolicy.SESSION_ONLY);
            case LEASE -> Holding.monitorWithLease(client, ticket,
                leaseMargin != null ? leaseMargin : defaultLeaseMargin(client.negotiatedSessionTimeout()));
        };
    }
}

package dev.baton.framework;

/**
 * Which connection states a recipe treats as "what I hold may be lost": the error policy recipes
 * consult before they keep acting as a lock holder or leader.
 *
 * <p>For every hold, under every policy, READ_ONLY counts as SUSPENDED ({@link #suspendsHolds}).
 * A server cut off from its quorum answers reads, and may even take the holder's session back,
 * but it keeps nothing alive on the quorum: the majority expires the session after its timeout
 * and gives the lock or the leadership to someone else, while the client, connected to the
 * minority, hears nothing of it. So a hold treats READ_ONLY exactly as a dropped connection:
 * STANDARD gives it up at once; SESSION_ONLY keeps it until the session is lost, which the client
 * reports a session timeout after the disconnect even if it is READ_ONLY by then (unless
 * {@code lostAfterSuspendedTimeout} is off). Plain operations are another matter: reads on a
 * read-only server are fine, and {@link ConnectionState#isConnected()} says so.
 */
public enum ErrorPolicy {
    /**
     * SUSPENDED (and READ_ONLY) and LOST all mean loss. Safe: nothing is trusted while the client
     * cannot prove its session is alive on the quorum. The default. Recipes also end a hold,
     * connected or not, when no round trip the ensemble's leader confirmed is recent enough
     * ({@link BatonClient#leaderContactNanos()} plus the session timeout, minus a tenth of it): the
     * server the client talks to may be a follower cut off from the leader, still answering.
     */
    STANDARD,
    /**
     * Only LOST means loss: a recipe keeps what it holds through a disconnect (or a read-only
     * server) and gives it up only when the session is known to be gone. Fewer spurious losses,
     * but for up to a session timeout two processes may both believe they hold — use fencing
     * tokens downstream.
     */
    SESSION_ONLY;

    /**
     * {@return whether {@code state} means "what I hold may be lost" under this policy}
     *
     * @param state a connection state
     */
    public boolean isLoss(ConnectionState state) {
        return switch (state) {
            case LOST -> true;
            case SUSPENDED, READ_ONLY -> this == STANDARD;
            case CONNECTED, RECONNECTED -> false;
        };
    }

    /**
     * Whether a hold treats {@code state} as SUSPENDED: the session cannot be shown alive on the
     * quorum right now. True for SUSPENDED and for READ_ONLY, under every policy; false for
     * CONNECTED and RECONNECTED (a writable server, which is part of the quorum) and for LOST
     * (which is more than suspended: the session is gone).
     *
     * @param state a connection state
     * @return whether holds treat it as SUSPENDED
     */
    public static boolean suspendsHolds(ConnectionState state) {
        return switch (state) {
            case SUSPENDED, READ_ONLY -> true;
            case CONNECTED, RECONNECTED, LOST -> false;
        };
    }
}

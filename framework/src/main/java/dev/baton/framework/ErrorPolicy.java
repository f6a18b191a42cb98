package dev.baton.framework;

/**
 * Which connection states a recipe treats as "what I hold may be lost": the error policy recipes
 * consult before they keep acting as a lock holder or leader.
 */
public enum ErrorPolicy {
    /**
     * SUSPENDED and LOST both mean loss. Safe: nothing is trusted while the client cannot prove
     * its session is alive. The default. Recipes also end a hold, connected or not, when no round
     * trip the ensemble's leader confirmed is recent enough ({@link BatonClient#leaderContactNanos()}
     * plus the session timeout, minus a tenth of it): the server the client talks to may be a
     * follower cut off from the leader, still answering.
     */
    STANDARD,
    /**
     * Only LOST means loss: a recipe keeps what it holds through a disconnect and gives it up only
     * when the session is known to be gone. Fewer spurious losses, but for up to a session
     * timeout two processes may both believe they hold — use fencing tokens downstream.
     */
    SESSION_ONLY;

    /** Whether {@code state} means "what I hold may be lost" under this policy. */
    public boolean isLoss(ConnectionState state) {
        return switch (state) {
            case LOST -> true;
            case SUSPENDED -> this == STANDARD;
            case CONNECTED, RECONNECTED, READ_ONLY -> false;
        };
    }
}

package dev.baton.framework;

/**
 * The client's view of its link to the ensemble, as listeners receive it.
 *
 * <p>Each change carries the session it belongs to ({@link ConnectionStateChange#sessionId()}).
 * What a service should do on each state is in {@code docs/framework.md}; in short: SUSPENDED
 * means "you may have lost what you hold, stop acting on it", LOST means "you have lost it",
 * RECONNECTED means "acquire again".
 */
public enum ConnectionState {
    /** First connection of this client: a session exists and requests flow. */
    CONNECTED,
    /**
     * The connection dropped. The session may still be alive on the servers (if the client comes
     * back within the session timeout), or not: until it is known, nothing held can be trusted.
     */
    SUSPENDED,
    /**
     * Connected again after SUSPENDED or LOST. After SUSPENDED it may be the same session (its
     * ephemeral nodes and watches intact); after LOST it is a new one the client built itself.
     */
    RECONNECTED,
    /**
     * The session is gone: the servers expired it, or the client was suspended longer than the
     * negotiated session timeout (configurable). Its ephemeral nodes are deleted or will be; the
     * client builds a new session on its own.
     */
    LOST,
    /** Connected to a server that is cut off from its quorum and serves reads only. */
    READ_ONLY;

    /** {@return whether requests can reach a server in this state (reads only, for READ_ONLY)} */
    public boolean isConnected() {
        return switch (this) {
            case CONNECTED, RECONNECTED, READ_ONLY -> true;
            case SUSPENDED, LOST -> false;
        };
    }

    /**
     * Whether writes can reach the quorum: connected to a writable server. False for READ_ONLY
     * (a server cut off from its quorum answers writes with NOTREADONLY), SUSPENDED and LOST. The
     * one test of "can a write or a delete be answered now" (background deletes, releases, a
     * candidate deciding to try again).
     *
     * @return whether a write sent now can be answered by the quorum
     */
    public boolean isWritable() {
        return switch (this) {
            case CONNECTED, RECONNECTED -> true;
            case SUSPENDED, LOST, READ_ONLY -> false;
        };
    }
}

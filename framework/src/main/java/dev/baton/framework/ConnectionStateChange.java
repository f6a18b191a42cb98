package dev.baton.framework;

/**
 * One change of connection state, tagged with the session it belongs to.
 *
 * @param state the new state
 * @param sessionId the session the state refers to: for LOST the session that was lost, for
 *     CONNECTED and RECONNECTED the session now in use (0 only if none was ever established)
 * @param sequence position of this change in the client's history, starting at 1
 */
public record ConnectionStateChange(ConnectionState state, long sessionId, long sequence) {
    @Override
    public String toString() {
        return state + " (session 0x" + Long.toHexString(sessionId) + ", #" + sequence + ")";
    }
}

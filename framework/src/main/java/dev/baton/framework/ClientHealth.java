package dev.baton.framework;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of a client's health, as {@link BatonClient#health()} takes it: what a health
 * endpoint serves and what an operator looks at first.
 *
 * <p>The rule. A client is {@linkplain #healthy() healthy} when it is started, not closed, and its
 * connection state is {@link ConnectionState#CONNECTED} or {@link ConnectionState#RECONNECTED}:
 * connected to a server of the quorum, with its session alive. {@code SUSPENDED} (connection lost,
 * the session may still live), {@code LOST} (the session is gone or given up) and
 * {@code READ_ONLY} (a server cut off from the quorum: no writes, no lock or election can be
 * trusted) are unhealthy. The ZooKeeper client pings the server every third of the session
 * timeout and reports a disconnect within two thirds of it, so the state already reflects a
 * silent server; {@link #sinceLastContact()} and {@link #retriesLastMinute()} explain a state
 * rather than decide it (an idle client has old contact and no retries, and is healthy). Unhealthy
 * for one snapshot is normal during a server restart: alert on unhealthy for longer than the
 * session timeout.
 *
 * @param state the connection state now
 * @param healthy whether the rule above holds
 * @param reason why the client is or is not healthy, in one sentence
 * @param sessionId the current session's id (0 before the first session)
 * @param negotiatedSessionTimeout the session timeout the ensemble granted (the requested one before the first)
 * @param connectedServer the server the client is connected to ({@code host/ip:port} as ZooKeeper names it),
 *     empty while it is not connected
 * @param sinceLastContact time since a server of the quorum last certainly heard from the session (an answer, or
 *     the connection itself); since the client was built if it never connected
 * @param retriesLastMinute operations retried in the last 60 seconds (each retry counted once)
 */
public record ClientHealth(ConnectionState state, boolean healthy, String reason, long sessionId,
                           Duration negotiatedSessionTimeout, Optional<String> connectedServer,
                           Duration sinceLastContact, int retriesLastMinute) {
    /**
     * Checks the parts are present.
     *
     * @param state the connection state now
     * @param healthy whether the rule holds
     * @param reason why, in one sentence
     * @param sessionId the current session's id
     * @param negotiatedSessionTimeout the granted session timeout
     * @param connectedServer the server connected to, if any
     * @param sinceLastContact time since the quorum last certainly heard from the session
     * @param retriesLastMinute operations retried in the last 60 seconds
     * @throws NullPointerException if a part is null
     */
    public ClientHealth {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(negotiatedSessionTimeout, "negotiatedSessionTimeout");
        Objects.requireNonNull(connectedServer, "connectedServer");
        Objects.requireNonNull(sinceLastContact, "sinceLastContact");
    }
}

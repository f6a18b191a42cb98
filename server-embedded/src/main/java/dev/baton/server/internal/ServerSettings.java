package dev.baton.server.internal;

import java.time.Duration;

/**
 * The settings every server of one ensemble shares.
 *
 * @param tickTime ZooKeeper's basic time unit (heartbeats, session expiry granularity)
 * @param minSessionTimeout the shortest session timeout the servers grant
 * @param maxSessionTimeout the longest session timeout the servers grant
 * @param initLimit ticks a follower may take to connect and sync to the leader
 * @param syncLimit ticks a follower may lag behind the leader before it is dropped
 * @param forceSync whether every transaction is fsynced before it is acknowledged
 * @param maxClientConnections connections one client address may open (0 = unlimited)
 * @param localSessions whether sessions start local to their server and become global when they
 *     create an ephemeral node (ZooKeeper's {@code localSessionsEnabled} and
 *     {@code localSessionsUpgradingEnabled}); a read-only server can create only local sessions
 */
public record ServerSettings(
    Duration tickTime,
    Duration minSessionTimeout,
    Duration maxSessionTimeout,
    int initLimit,
    int syncLimit,
    boolean forceSync,
    int maxClientConnections,
    boolean localSessions) {

    public int tickMillis() {
        return Math.toIntExact(tickTime.toMillis());
    }
}

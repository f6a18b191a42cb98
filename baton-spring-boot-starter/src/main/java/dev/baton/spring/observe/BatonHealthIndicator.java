package dev.baton.spring.observe;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientHealth;
import java.util.Objects;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * An actuator health indicator of a {@link BatonClient}: UP while {@link BatonClient#health()}
 * says healthy, DOWN otherwise.
 *
 * <p>The rule is the client's (see {@link ClientHealth}): started, not closed, and connected to a
 * server of the quorum with a live session. SUSPENDED, LOST and READ_ONLY are DOWN, since no lock
 * or leadership of the process can be trusted then. The details carry the whole snapshot so that
 * the reason for a DOWN is on the page: {@code state}, {@code sessionId} (hex, as ZooKeeper logs
 * it), {@code negotiatedSessionTimeout}, {@code server} (absent while not connected),
 * {@code sinceLastContact}, {@code retriesLastMinute} and {@code reason}; durations are ISO-8601
 * strings ({@code PT40S}).
 *
 * <p>Caveat: a DOWN for one check is normal during a server restart (the client reconnects within
 * the session timeout). A liveness probe that restarts the process on one DOWN turns a short
 * ZooKeeper hiccup into a restart of the fleet: keep this indicator out of the liveness group, or
 * tolerate DOWN for longer than the session timeout.
 */
public class BatonHealthIndicator implements HealthIndicator {
    private final BatonClient client;

    /**
     * An indicator of {@code client}.
     *
     * @param client the client to report on
     */
    public BatonHealthIndicator(BatonClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /**
     * Takes a snapshot of the client's health (no request to the servers: it reads state the
     * client already keeps, so a health check never waits on ZooKeeper).
     *
     * @return UP or DOWN with the snapshot's details
     */
    @Override
    public Health health() {
        ClientHealth health = client.health();
        Health.Builder builder = health.healthy() ? Health.up() : Health.down();
        builder.withDetail("state", health.state().name())
            .withDetail("sessionId", "0x" + Long.toHexString(health.sessionId()))
            .withDetail("negotiatedSessionTimeout", health.negotiatedSessionTimeout().toString());
        health.connectedServer().ifPresent(server -> builder.withDetail("server", server));
        return builder.withDetail("sinceLastContact", health.sinceLastContact().toString())
            .withDetail("retriesLastMinute", health.retriesLastMinute())
            .withDetail("reason", health.reason())
            .build();
    }
}

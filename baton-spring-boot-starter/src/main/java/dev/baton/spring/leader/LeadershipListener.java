package dev.baton.spring.leader;

/**
 * Told by a {@link BatonLeaderInitiator} when this instance gains and loses leadership, in order,
 * on the initiator's thread: granted after the {@link LeaderLifecycle} beans started, revoked
 * before they stop. With Spring Integration on the class path the starter adds one that
 * publishes {@code OnGrantedEvent} and {@code OnRevokedEvent}.
 */
public interface LeadershipListener {
    /**
     * This instance leads now.
     *
     * @param context the term: role, fencing token, and a way to step down
     */
    void granted(LeadershipContext context);

    /**
     * This instance no longer leads.
     *
     * @param context the term that ended
     */
    void revoked(LeadershipContext context);
}

package dev.baton.spring.leader;

import java.util.Objects;

/**
 * One term of leadership of a {@link BatonLeaderInitiator}: its role, its fencing token, whether
 * it is still the current term, and a way to step down.
 *
 * <p>The token is the czxid of the leader's node, larger than every earlier term's: pass it to
 * what the leader writes to, so a leader that was cut off without knowing it is refused.
 */
public final class LeadershipContext {
    private final BatonLeaderInitiator initiator;
    private final String role;
    private final long token;

    LeadershipContext(BatonLeaderInitiator initiator, String role, long token) {
        this.initiator = Objects.requireNonNull(initiator, "initiator");
        this.role = Objects.requireNonNull(role, "role");
        this.token = token;
    }

    /** {@return the role elected} */
    public String role() {
        return role;
    }

    /** {@return the term's fencing token} */
    public long token() {
        return token;
    }

    /** {@return whether this term is still the initiator's current one and it still leads} */
    public boolean isLeader() {
        return initiator.isLeader() && initiator.leadershipToken() == token;
    }

    /**
     * Steps down if this term is still current: the initiator leaves the election and joins it
     * again at the back of the line, so another instance can lead.
     */
    public void yieldLeadership() {
        if (isLeader()) {
            initiator.yieldLeadership();
        }
    }

    @Override
    public String toString() {
        return "LeadershipContext[role=" + role + ", token=" + token + ", leader=" + isLeader() + "]";
    }
}

package dev.baton.spring.integration;

import dev.baton.spring.leader.LeadershipContext;
import java.util.Objects;
import org.springframework.integration.leader.Context;

/**
 * Spring Integration's leadership {@link Context} for a term of a
 * {@link dev.baton.spring.leader.BatonLeaderInitiator}, carried by the {@code OnGrantedEvent} and
 * {@code OnRevokedEvent} it publishes; {@link #token()} gives the term's fencing token.
 *
 * <pre>{@code
 * @EventListener
 * void onGranted(OnGrantedEvent event) {
 *     long token = ((BatonLeaderContext) event.getContext()).token();
 * }
 * }</pre>
 */
public final class BatonLeaderContext implements Context {
    private final LeadershipContext term;

    /**
     * Wraps a term.
     *
     * @param term the term
     */
    public BatonLeaderContext(LeadershipContext term) {
        this.term = Objects.requireNonNull(term, "term");
    }

    @Override
    public boolean isLeader() {
        return term.isLeader();
    }

    /** Steps down if this term is still current; the instance joins the election again at the back. */
    @Override
    public void yield() {
        term.yieldLeadership();
    }

    @Override
    public String getRole() {
        return term.role();
    }

    /** {@return the term's fencing token: larger than every earlier term's} */
    public long token() {
        return term.token();
    }

    /** {@return the Baton term behind this context} */
    public LeadershipContext term() {
        return term;
    }

    @Override
    public String toString() {
        return "BatonLeaderContext[" + term + "]";
    }
}

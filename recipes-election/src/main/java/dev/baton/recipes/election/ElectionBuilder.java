package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.Objects;

/**
 * What the builders of {@link LeaderLatch} and {@link LeaderSelector} share: the election and
 * the leadership policy. Each setting is checked as it is set; {@code build()} checks that they
 * fit together.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class ElectionBuilder<B extends ElectionBuilder<B>> {
    /**
     * Largest participant id, in UTF-8 bytes: it is the data of the participant's node, read for
     * every participant whenever the participants are listed, and it names a process (a host and
     * port, a pod name), so this is far more than an id needs and far less than ZooKeeper's 1 MB.
     */
    public static final int MAX_PARTICIPANT_ID_BYTES = 64 * 1024;

    final BatonClient client;
    final String path;
    final String participantId;
    private final String marker;
    LeadershipPolicy policy;
    Duration leaseMargin;

    ElectionBuilder(String recipe, BatonClient client, String path, String participantId, String marker) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = ZPaths.validateRecipePath(recipe, path);
        this.participantId = Objects.requireNonNull(participantId, "participantId");
        Leadership.participantData(participantId); // fails now, saying why, if it is too long
        this.marker = marker;
    }

    /**
     * When to step down. Default: from the client's error policy (STANDARD: CONNECTION, SESSION_ONLY:
     * SESSION).
     *
     * @param leadershipPolicy when to step down
     * @return this builder
     */
    public B policy(LeadershipPolicy leadershipPolicy) {
        this.policy = Objects.requireNonNull(leadershipPolicy, "policy");
        return self();
    }

    /**
     * Under {@link LeadershipPolicy#LEASE}: how long before the earliest possible session expiry a
     * disconnected leader steps down. Default: a tenth of the negotiated session timeout (at least
     * 50 ms). It must cover the leader's timer and callback latency; a pause longer than it (GC,
     * VM freeze) can still overlap with the next leader.
     *
     * @param margin how long before the earliest possible session expiry to step down, not negative
     * @return this builder
     */
    public B leaseMargin(Duration margin) {
        Objects.requireNonNull(margin, "leaseMargin");
        if (margin.isNegative()) {
            throw new IllegalArgumentException("leaseMargin must not be negative, was " + margin);
        }
        this.leaseMargin = margin;
        return self();
    }

    /** The policy in force: the one set, or the client's. */
    LeadershipPolicy effectivePolicy() {
        LeadershipPolicy effective = policy != null ? policy : LeadershipPolicy.of(client.errorPolicy());
        if (leaseMargin != null && effective != LeadershipPolicy.LEASE) {
            throw new IllegalStateException("leaseMargin applies to policy LEASE only, but the policy is " + effective
                + (policy == null ? " (from the client's error policy)" : ""));
        }
        return effective;
    }

    /**
     * The leading side of a recipe built from these settings: a new line of its own and the
     * policy in force. {@code kind} ("latch", "selector") names it in messages.
     */
    Leadership leadership(Object owner, String kind) {
        Line line = Line.of(client, path, marker);
        LeadershipPolicy effective = effectivePolicy();
        BatonClient c = client; // the recipe keeps these, not the builder
        Duration margin = leaseMargin;
        return new Leadership(owner, kind + " " + participantId + " on " + path, line,
            mine -> effective.monitor(c, mine, margin), c, kind, path);
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}

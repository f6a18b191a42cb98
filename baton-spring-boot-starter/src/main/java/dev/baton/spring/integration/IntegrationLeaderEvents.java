package dev.baton.spring.integration;

import dev.baton.spring.leader.LeadershipContext;
import dev.baton.spring.leader.LeadershipListener;
import java.util.Objects;
import org.springframework.integration.leader.event.LeaderEventPublisher;

/**
 * Publishes Spring Integration's {@code OnGrantedEvent} and {@code OnRevokedEvent} for the terms
 * of a {@link dev.baton.spring.leader.BatonLeaderInitiator}, each with a
 * {@link BatonLeaderContext}. Spring Integration's {@code SmartLifecycleRoleController} hears
 * them, so endpoints annotated {@code @Role("<role>")} start on the leader and stop elsewhere.
 * Give those endpoints {@code autoStartup = "false"}: Spring Integration otherwise starts them
 * with the context on every instance, and only a revocation stops them.
 */
public final class IntegrationLeaderEvents implements LeadershipListener {
    private final LeaderEventPublisher publisher;
    private final Object source;

    /**
     * Publishes through {@code publisher}.
     *
     * @param publisher Spring Integration's publisher, such as {@code DefaultLeaderEventPublisher}
     * @param source the events' source
     */
    public IntegrationLeaderEvents(LeaderEventPublisher publisher, Object source) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.source = Objects.requireNonNull(source, "source");
    }

    @Override
    public void granted(LeadershipContext context) {
        publisher.publishOnGranted(source, new BatonLeaderContext(context), context.role());
    }

    @Override
    public void revoked(LeadershipContext context) {
        publisher.publishOnRevoked(source, new BatonLeaderContext(context), context.role());
    }
}

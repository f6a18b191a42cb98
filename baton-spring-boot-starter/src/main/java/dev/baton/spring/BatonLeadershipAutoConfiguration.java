package dev.baton.spring;

import dev.baton.framework.BatonClient;
import dev.baton.spring.integration.IntegrationLeaderEvents;
import dev.baton.spring.leader.BatonLeaderInitiator;
import dev.baton.spring.leader.LeaderLifecycle;
import dev.baton.spring.leader.LeadershipListener;
import java.lang.management.ManagementFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.integration.leader.event.DefaultLeaderEventPublisher;

/**
 * Auto-configuration of a {@link BatonLeaderInitiator} when {@code baton.leadership.enabled=true}
 * and baton-recipes-election is on the class path: every {@link LeaderLifecycle} bean runs only
 * on the leader, every {@link LeadershipListener} bean hears grants and revocations, and with
 * spring-integration-core present Spring Integration's leader events are published too.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnClass(name = "dev.baton.recipes.election.LeaderLatch")
@ConditionalOnBean(BatonClient.class)
@ConditionalOnProperty(prefix = "baton.leadership", name = "enabled", havingValue = "true")
public class BatonLeadershipAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public BatonLeadershipAutoConfiguration() {
    }

    /**
     * The initiator, started and stopped with the context.
     *
     * @param client the client
     * @param properties the {@code baton.*} properties
     * @param environment for {@code spring.application.name}
     * @param lifecycles the beans that run only on the leader
     * @param listeners the beans told of grants and revocations
     * @return the initiator
     */
    @Bean
    @ConditionalOnMissingBean
    public BatonLeaderInitiator batonLeaderInitiator(BatonClient client, BatonProperties properties, Environment environment,
                                                     ObjectProvider<LeaderLifecycle> lifecycles,
                                                     ObjectProvider<LeadershipListener> listeners) {
        BatonProperties.Leadership settings = properties.getLeadership();
        String path = settings.getPath() != null ? settings.getPath() : "/baton/leadership/" + settings.getRole();
        BatonLeaderInitiator.Builder builder = BatonLeaderInitiator.builder(client, path)
            .role(settings.getRole())
            .lifecycles(lifecycles.orderedStream().toList())
            .listeners(listeners.orderedStream().toList());
        if (settings.getParticipantId() != null) {
            builder.participantId(settings.getParticipantId());
        } else {
            String app = environment.getProperty("spring.application.name");
            if (app != null) {
                builder.participantId(app + "@" + ManagementFactory.getRuntimeMXBean().getName());
            }
        }
        return builder.build();
    }

    /** Spring Integration's leader events, when spring-integration-core is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.integration.leader.event.LeaderEventPublisher")
    public static class IntegrationEventsConfiguration {

        /** Creates the configuration (Spring does). */
        public IntegrationEventsConfiguration() {
        }

        /**
         * Publishes {@code OnGrantedEvent} and {@code OnRevokedEvent}.
         *
         * @param publisher the application's event publisher
         * @return the listener
         */
        @Bean
        @ConditionalOnMissingBean
        public IntegrationLeaderEvents batonIntegrationLeaderEvents(ApplicationEventPublisher publisher) {
            return new IntegrationLeaderEvents(new DefaultLeaderEventPublisher(publisher), "baton-leader-initiator");
        }
    }
}

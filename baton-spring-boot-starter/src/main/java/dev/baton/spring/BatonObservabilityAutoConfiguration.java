package dev.baton.spring;

import dev.baton.framework.BatonClient;
import dev.baton.metrics.BatonMetrics;
import dev.baton.spring.observe.BatonHealthIndicator;
import dev.baton.spring.observe.BatonMetricsBinding;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the client's actuator health indicator and of its Micrometer meters.
 *
 * <p>With spring-boot-actuator on the class path, a {@link BatonHealthIndicator} named
 * {@code batonHealthIndicator} (so {@code /actuator/health} shows it as {@code baton}), unless
 * {@code management.health.baton.enabled=false} (or {@code management.health.defaults.enabled=false}
 * without it set), as Boot's own indicators do. With baton-metrics on the class path and one
 * {@link MeterRegistry} bean (or a primary one, as Boot's composite is), a
 * {@link BatonMetricsBinding} binds a {@link BatonMetrics} of the client to it. A service that
 * defines its own {@code BatonMetrics} bean binds it itself (or Boot does, as a
 * {@code MeterBinder}): nothing is bound here then.
 *
 * <p>Each part sits in a nested class so that its optional classes are only loaded when its
 * library is present.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class, afterName = {
    "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"},
    before = {BatonLockRegistryAutoConfiguration.class, BatonLeadershipAutoConfiguration.class, BatonDiscoveryAutoConfiguration.class})
@ConditionalOnBean(BatonClient.class)
public class BatonObservabilityAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public BatonObservabilityAutoConfiguration() {
    }

    /** The health indicator, when the actuator is on the class path and the indicator is enabled. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.actuate.health.HealthIndicator",
        "org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator"})
    public static class HealthConfiguration {

        /** Creates the configuration (Spring does). */
        public HealthConfiguration() {
        }

        /**
         * The indicator; the nested class keeps its annotation from being read without the actuator.
         */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnEnabledHealthIndicator("baton")
        public static class EnabledHealthConfiguration {

            /** Creates the configuration (Spring does). */
            public EnabledHealthConfiguration() {
            }

            /**
             * The indicator of the client.
             *
             * @param client the client
             * @return the indicator, shown as {@code baton}
             */
            @Bean
            @ConditionalOnMissingBean(name = "batonHealthIndicator")
            public BatonHealthIndicator batonHealthIndicator(BatonClient client) {
                return new BatonHealthIndicator(client);
            }
        }
    }

    /** The meters, when baton-metrics is on the class path and the context has a registry. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"dev.baton.metrics.BatonMetrics", "io.micrometer.core.instrument.MeterRegistry"})
    public static class MetricsConfiguration {

        /** Creates the configuration (Spring does). */
        public MetricsConfiguration() {
        }

        /**
         * The client's meters, bound to the registry; unbound when the context closes.
         *
         * @param client the client
         * @param registry the context's registry
         * @return the binding
         */
        @Bean(destroyMethod = "close")
        @ConditionalOnSingleCandidate(MeterRegistry.class)
        @ConditionalOnMissingBean({BatonMetrics.class, BatonMetricsBinding.class})
        public BatonMetricsBinding batonMetricsBinding(BatonClient client, MeterRegistry registry) {
            return new BatonMetricsBinding(BatonMetrics.of(client), registry);
        }
    }
}

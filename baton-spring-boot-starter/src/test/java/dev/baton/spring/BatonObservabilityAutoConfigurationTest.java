package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.metrics.BatonMetrics;
import dev.baton.spring.observe.BatonMetricsBinding;
import dev.baton.test.ChaosProxy;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The health indicator and the meters: when they appear (class path, properties, a registry) and
 * what they say about a client of one shared server.
 */
@EnsembleTest
class BatonObservabilityAutoConfigurationTest {
    private static final AutoConfigurations BATON = AutoConfigurations.of(BatonAutoConfiguration.class,
        BatonObservabilityAutoConfiguration.class);

    private ApplicationContextRunner runner;

    @BeforeEach
    void runner(@ConnectString String connect) {
        runner = new ApplicationContextRunner().withConfiguration(BATON)
            .withPropertyValues("baton.connect-string=" + connect, "baton.startup-timeout=20s");
    }

    @Test
    void theIndicatorIsUpWithTheSessionsDetailsOnALiveClientAndDownOnceTheClientIsClosed() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasBean("batonHealthIndicator");
            HealthIndicator indicator = context.getBean("batonHealthIndicator", HealthIndicator.class);
            BatonClient client = context.getBean(BatonClient.class);

            Health up = indicator.health();
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("state", "CONNECTED")
                .containsEntry("sessionId", "0x" + Long.toHexString(client.sessionId()))
                .containsEntry("negotiatedSessionTimeout", client.negotiatedSessionTimeout().toString())
                .containsEntry("retriesLastMinute", 0)
                .containsEntry("reason", "connected to the quorum with a live session")
                .containsKeys("server", "sinceLastContact");

            client.close();
            Health down = indicator.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("reason", "the client is closed");
        });
    }

    @Test
    void theIndicatorIsDownWhileTheClientIsCutFromTheServerAndUpAgainOnceItReconnects(@ConnectString String connect) {
        try (ChaosProxy proxy = ChaosProxy.start(connect)) {
            runner.withPropertyValues("baton.connect-string=" + proxy.connectString(), "baton.session-timeout=10s").run(context -> {
                HealthIndicator indicator = context.getBean("batonHealthIndicator", HealthIndicator.class);
                assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
                long session = context.getBean(BatonClient.class).sessionId();

                proxy.cut();
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                    Health down = indicator.health();
                    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(down.getDetails()).containsEntry("state", "SUSPENDED").doesNotContainKey("server");
                });

                proxy.heal();
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                    Health up = indicator.health();
                    assertThat(up.getStatus()).isEqualTo(Status.UP);
                    assertThat(up.getDetails()).containsEntry("state", "RECONNECTED")
                        .containsEntry("sessionId", "0x" + Long.toHexString(session));
                });
            });
        }
    }

    @Test
    void noIndicatorWithoutTheActuatorOnTheClassPath() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
            .run(context -> assertThat(context).hasNotFailed().hasSingleBean(BatonClient.class)
                .doesNotHaveBean("batonHealthIndicator"));
    }

    @Test
    void theIndicatorIsSwitchedOffLikeBootsOwn() {
        runner.withPropertyValues("management.health.baton.enabled=false")
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("batonHealthIndicator"));
        runner.withPropertyValues("management.health.defaults.enabled=false")
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("batonHealthIndicator"));
        runner.withPropertyValues("management.health.defaults.enabled=false", "management.health.baton.enabled=true")
            .run(context -> assertThat(context).hasNotFailed().hasBean("batonHealthIndicator"));
    }

    @Test
    void theClientsMetersAppearInTheContextsRegistryAndStopWithTheContext() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        runner.withBean(MeterRegistry.class, () -> registry).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(BatonMetricsBinding.class);
            BatonClient client = context.getBean(BatonClient.class);
            client.checkExists().forPath("/");
            Timer requests = registry.find("baton.client.requests").tag("operation", "checkExists").tag("outcome", "success").timer();
            assertThat(requests).as("the request was timed").isNotNull();
            assertThat(requests.count()).isEqualTo(1);
            assertThat(registry.get("baton.client.healthy").gauge().value()).isEqualTo(1.0);
            assertThat(client.observer()).as("reporting while the context runs").isNotSameAs(BatonObserver.NONE);
        });
        Timer requests = registry.get("baton.client.requests").tag("operation", "checkExists").timer();
        assertThat(requests.count()).as("the counts stay after the context closed").isEqualTo(1);
        assertThat(registry.find("baton.client.healthy").gauge()).as("the gauges of the closed client leave").isNull();
    }

    @Test
    void bootsOwnMetricsAutoConfigurationBindsTheClientOnceToItsRegistry() {
        runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class))
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(BatonMetricsBinding.class);
                context.getBean(BatonClient.class).checkExists().forPath("/");
                MeterRegistry registry = context.getBean(MeterRegistry.class);
                assertThat(registry.get("baton.client.requests").tag("operation", "checkExists").timer().count()).isEqualTo(1);
            });
    }

    @Test
    void nothingIsBoundWithoutARegistryOrWithoutBatonMetrics() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(BatonMetricsBinding.class));
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withClassLoader(new FilteredClassLoader(BatonMetrics.class))
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(BatonMetricsBinding.class));
    }

    @Test
    void aServiceThatDefinesItsOwnBatonMetricsKeepsIt() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withUserConfiguration(OwnMetrics.class)
            .run(context -> assertThat(context).hasNotFailed().hasSingleBean(BatonMetrics.class)
                .doesNotHaveBean(BatonMetricsBinding.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnMetrics {
        @Bean
        BatonMetrics ownMetrics(BatonClient client) {
            return BatonMetrics.builder(client).name("invoices", "/locks/invoices").build();
        }
    }
}

package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.spring.integration.BatonLock;
import dev.baton.spring.integration.BatonLockRegistry;
import dev.baton.spring.leader.BatonLeaderInitiator;
import dev.baton.spring.observe.BatonMetricsBinding;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * baton-metrics is built against the parent's Micrometer (1.17), but a Spring Boot 3.5 service gets
 * the Micrometer Boot manages (1.15.x), whatever baton-metrics asked for. This module's tests run on
 * Boot's version (the pom sets it), and this class proves it and drives every kind of meter
 * baton-metrics registers (gauges, a time gauge, counters, timers) through it.
 */
@EnsembleTest
class BootManagedMicrometerTest {

    @Test
    void theTestsRunOnTheMicrometerThatSpringBoot35Manages() {
        assertThat(SpringBootVersion.getVersion()).as("Spring Boot on the test class path").startsWith("3.5.");
        assertThat(MeterRegistry.class.getPackage().getImplementationVersion())
            .as("micrometer-core on the test class path: the version Boot 3.5's dependency management gives a service")
            .startsWith("1.15.");
    }

    @Test
    void everyKindOfMeterOfBatonMetricsWorksOnBootsMicrometer(@ConnectString String connect) {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonObservabilityAutoConfiguration.class,
                BatonLockRegistryAutoConfiguration.class, BatonLeadershipAutoConfiguration.class, MetricsAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class))
            .withPropertyValues("baton.connect-string=" + connect, "baton.startup-timeout=20s", "baton.leadership.enabled=true",
                "baton.leadership.role=micrometer")
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(BatonMetricsBinding.class);
                MeterRegistry registry = context.getBean(MeterRegistry.class);
                BatonLock lock = context.getBean(BatonLockRegistry.class).obtain("meters");
                lock.lock();
                lock.unlock();
                BatonLeaderInitiator initiator = context.getBean(BatonLeaderInitiator.class);
                await().atMost(Duration.ofSeconds(20)).until(initiator::isLeader);

                Timer acquired = registry.get("baton.lock.acquire").tag("recipe", "mutex").tag("outcome", "acquired").timer();
                assertThat(acquired.count()).as("timer").isEqualTo(1);
                assertThat(registry.get("baton.lock.held").tag("recipe", "mutex").timer().count()).isEqualTo(1);
                assertThat(registry.get("baton.election.terms").tag("recipe", "latch").counter().count()).as("counter").isEqualTo(1);
                assertThat(registry.get("baton.election.leader").tag("recipe", "latch").gauge().value()).as("gauge").isEqualTo(1.0);
                Gauge healthy = registry.get("baton.client.healthy").gauge();
                assertThat(healthy.value()).isEqualTo(1.0);
                TimeGauge sessionTimeout = registry.get("baton.client.session.timeout").timeGauge();
                assertThat(sessionTimeout.value(TimeUnit.MILLISECONDS)).as("time gauge").isPositive();
                assertThat(registry.get("baton.client.requests").timers()).as("timers of requests").isNotEmpty();
            });
    }
}

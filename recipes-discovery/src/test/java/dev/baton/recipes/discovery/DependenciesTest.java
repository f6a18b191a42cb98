package dev.baton.recipes.discovery;

import static dev.baton.recipes.discovery.Fixtures.discovery;
import static dev.baton.recipes.discovery.Fixtures.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@EnsembleTest
class DependenciesTest {
    @Test
    void startFailsNamingTheMissingServicesAndRegistersNothing(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> others = discovery(b, "/deps1")) {
            others.registerService(instance("payments", "p1", 1));
            others.registerService(instance("ledger", "l1", 2).toBuilder().enabled(false).build());
            ServiceDiscovery<Endpoint> me = ServiceDiscoveryBuilder.builder(Endpoint.class).client(a).basePath("/deps1")
                .thisInstance(instance("orders", "o1", 3)).requireServices("payments", "ledger", "fraud").build();
            assertThatThrownBy(me::start).isInstanceOfSatisfying(MissingDependencyException.class, e -> {
                assertThat(e.missing()).containsExactlyInAnyOrder("ledger", "fraud");
                assertThat(e).hasMessageContaining("/deps1").hasMessageContaining("fraud, ledger");
            });
            assertThat(others.queryForInstances("orders")).as("a service missing its dependencies does not advertise itself").isEmpty();
            assertThatThrownBy(() -> me.registerService(instance("orders", "o1", 3))).hasMessageContaining("closed");
        }
    }

    @Test
    void startSucceedsWhenEveryDependencyHasAUsableInstance(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> others = discovery(b, "/deps2");
             ServiceDiscovery<Endpoint> me = ServiceDiscoveryBuilder.builder(Endpoint.class).client(a).basePath("/deps2")
                 .thisInstance(instance("orders", "o1", 3)).requireServices("payments").build()) {
            others.registerService(instance("payments", "p1", 1));
            me.start();
            assertThat(others.queryForInstances("orders")).hasSize(1);
            assertThat(me.missingDependencies()).isEmpty();
        }
    }

    @Test
    void startWaitsForADependencyThatBecomesUsableInTime(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> others = discovery(b, "/deps3");
             ServiceDiscovery<Endpoint> me = ServiceDiscoveryBuilder.builder(Endpoint.class).client(a).basePath("/deps3")
                 .requireServices("payments").dependencyTimeout(Duration.ofSeconds(30)).build()) {
            ServiceInstance<Endpoint> payments = instance("payments", "p1", 1);
            others.registerService(payments.toBuilder().health(Health.MAINTENANCE).build());
            CompletableFuture<Void> started = CompletableFuture.runAsync(() -> {
                try {
                    me.start();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            others.setHealth(payments, Health.UP);
            started.get(30, TimeUnit.SECONDS);
            assertThat(me.missingDependencies()).isEmpty();
        }
    }

    @Test
    void warnModeStartsAnywayAndReportsWhatIsMissing(BatonClient a) throws Exception {
        try (ServiceDiscovery<Endpoint> me = ServiceDiscoveryBuilder.builder(Endpoint.class).client(a).basePath("/deps4")
            .thisInstance(instance("orders", "o1", 3)).requireServices("payments").failOnMissingDependencies(false).build()) {
            me.start();
            assertThat(me.missingDependencies()).containsExactly("payments");
            assertThat(me.queryForInstances("orders")).hasSize(1);
            me.registerService(instance("payments", "p1", 1));
            assertThat(me.missingDependencies()).isEmpty();
        }
    }

    @Test
    void waitingEndsAtTheTimeoutWithTheMissingServices(BatonClient a) throws Exception {
        ServiceDiscovery<Endpoint> me = ServiceDiscoveryBuilder.builder(Endpoint.class).client(a).basePath("/deps5")
            .requireServices("never").dependencyTimeout(Duration.ofMillis(300)).build();
        assertThatThrownBy(me::start).isInstanceOfSatisfying(MissingDependencyException.class,
            e -> assertThat(e.missing()).containsExactly("never"));
    }
}

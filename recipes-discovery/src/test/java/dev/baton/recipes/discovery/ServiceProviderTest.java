package dev.baton.recipes.discovery;

import static dev.baton.recipes.discovery.Fixtures.discovery;
import static dev.baton.recipes.discovery.Fixtures.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

@EnsembleTest
class ServiceProviderTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void startingOnAClientThatWasNeverStartedFailsAtOnceAndWorksOnceItIs(BatonClient a, @ConnectString String connect) throws Exception {
        // the newcomer's slip: build(), then the provider and the cache, and client.start() forgotten.
        // Until 2026-11-28 their start() returned (no connection: "loads when the client connects"),
        // and getInstance() answered null for ever, as for a service with no instances.
        try (ServiceDiscovery<Endpoint> registrant = discovery(a, "/unstartedprovider");
             BatonClient unstarted = BatonClient.builder().connectString(connect).build();
             ServiceDiscovery<Endpoint> consumer = ServiceDiscoveryBuilder.builder(Endpoint.class).client(unstarted)
                 .basePath("/unstartedprovider").build();
             ServiceProvider<Endpoint> provider = consumer.serviceProviderBuilder().serviceName("orders").build();
             ServiceCache<Endpoint> cache = consumer.serviceCacheBuilder().name("orders").build()) {
            ServiceInstance<Endpoint> one = instance("orders", "o1", 1);
            registrant.registerService(one);
            assertThatThrownBy(provider::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the service provider /unstartedprovider/orders: the client is not started; call start() first");
            assertThatThrownBy(cache::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the service cache /unstartedprovider/orders: the client is not started; call start() first");

            unstarted.start();
            provider.start();
            cache.start();
            // started, not yet connected: both load once the client connects
            await().atMost(WAIT).untilAsserted(() ->
                assertThat(provider.getInstance()).as("the same provider works once its client is started").isEqualTo(one));
            await().atMost(WAIT).untilAsserted(() -> assertThat(cache.getInstances()).as("the same cache too").containsExactly(one));
        }
    }

    @Test
    void roundRobinsOverRegisteredInstancesFromAnotherClient(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> registrant = discovery(a, "/rr"); ServiceDiscovery<Endpoint> consumer = discovery(b, "/rr")) {
            for (int i = 0; i < 3; i++) {
                registrant.registerService(instance("s", "i" + i, 8000 + i));
            }
            ServiceProvider<Endpoint> provider = consumer.serviceProviderBuilder().serviceName("s").build();
            provider.start();
            List<String> picks = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                picks.add(provider.getInstance().id());
            }
            assertThat(picks).containsExactly("i0", "i1", "i2", "i0", "i1", "i2");
            assertThat(provider.getAllInstances()).hasSize(3);
        }
    }

    @Test
    void disabledAndUnhealthyInstancesAreNeverReturnedAndHealthyOnesComeBack(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> registrant = discovery(a, "/health"); ServiceDiscovery<Endpoint> consumer = discovery(b, "/health")) {
            ServiceInstance<Endpoint> up = instance("s", "up", 1);
            ServiceInstance<Endpoint> maintained = instance("s", "maintained", 2);
            registrant.registerService(up);
            registrant.registerService(maintained);
            registrant.registerService(instance("s", "disabled", 3).toBuilder().enabled(false).build());
            ServiceProvider<Endpoint> provider = consumer.serviceProviderBuilder().serviceName("s").build();
            provider.start();
            assertThat(provider.getAllInstances()).extracting(ServiceInstance::id).containsExactly("maintained", "up");

            ServiceInstance<Endpoint> inMaintenance = registrant.setHealth(maintained, Health.MAINTENANCE);
            assertThat(inMaintenance.enabled()).isFalse();
            await().atMost(WAIT).until(() -> provider.getAllInstances().equals(List.of(up)));
            for (int i = 0; i < 10; i++) {
                assertThat(provider.getInstance()).isEqualTo(up);
            }
            registrant.setHealth(maintained, Health.UP);
            await().atMost(WAIT).until(() -> provider.getAllInstances().size() == 2);
        }
    }

    @Test
    void errorsTakeAnInstanceOutForTheDownTimeOnAFakeClock(BatonClient a) throws Exception {
        try (ServiceDiscovery<Endpoint> discovery = discovery(a, "/down")) {
            ServiceInstance<Endpoint> flaky = instance("s", "flaky", 1);
            ServiceInstance<Endpoint> fine = instance("s", "fine", 2);
            discovery.registerService(flaky);
            discovery.registerService(fine);
            AtomicLong now = new AtomicLong(-1_000_000_000L);
            ServiceProvider<Endpoint> provider = discovery.serviceProviderBuilder().serviceName("s")
                .downInstancePolicy(new DownInstancePolicy(2, Duration.ofSeconds(10), Duration.ofSeconds(60)))
                .ticker(now::get).build();
            provider.start();

            provider.noteError(flaky);
            assertThat(provider.getAllInstances()).as("one error is below the threshold").hasSize(2);
            now.addAndGet(Duration.ofSeconds(5).toNanos());
            provider.noteError(flaky);
            assertThat(provider.getAllInstances()).containsExactly(fine);
            for (int i = 0; i < 10; i++) {
                assertThat(provider.getInstance()).isEqualTo(fine);
            }
            now.addAndGet(Duration.ofSeconds(59).toNanos());
            assertThat(provider.getInstance()).isEqualTo(fine);
            now.addAndGet(Duration.ofSeconds(1).toNanos());
            assertThat(provider.getAllInstances()).as("back after the down time").containsExactly(fine, flaky);
        }
    }

    @Test
    void anErrorNotedAgainstAnotherServicesInstanceIsRefusedAndTakesNothingOut(BatonClient a) throws Exception {
        // teams often use the host name as the id, so two services on one host share ids
        try (ServiceDiscovery<Endpoint> discovery = discovery(a, "/foreign"); ServiceDiscovery<Endpoint> other = discovery(a, "/foreign")) {
            ServiceInstance<Endpoint> payments = instance("payments", "node-7", 1);
            ServiceInstance<Endpoint> ledger = instance("ledger", "node-7", 2);
            discovery.registerService(payments);
            other.registerService(ledger);
            ServiceProvider<Endpoint> provider = discovery.serviceProviderBuilder().serviceName("payments")
                .downInstancePolicy(new DownInstancePolicy(1, Duration.ofSeconds(10), Duration.ofSeconds(60))).build();
            provider.start();

            assertThatThrownBy(() -> provider.noteError(ledger))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'ledger'").hasMessageContaining("'payments'");
            assertThat(provider.getAllInstances()).as("payments' node-7 did not fail").containsExactly(payments);
        }
    }

    @Test
    void nothingUsableMeansNullAndFiltersNarrowTheChoice(BatonClient a) throws Exception {
        try (ServiceDiscovery<Endpoint> discovery = discovery(a, "/filter")) {
            ServiceProvider<Endpoint> empty = discovery.serviceProviderBuilder().serviceName("none").build();
            empty.start();
            assertThat(empty.getInstance()).isNull();
            assertThat(empty.getAllInstances()).isEmpty();

            discovery.registerService(instance("s", "v1", 1));
            ServiceInstance<Endpoint> v2 = instance("s", "v2", 2).toBuilder().payload(new Endpoint("z1", "v2")).build();
            discovery.registerService(v2);
            ServiceProvider<Endpoint> onlyV2 = discovery.serviceProviderBuilder().serviceName("s")
                .additionalFilter(i -> i.payload() != null)
                .additionalFilter(i -> "v2".equals(i.payload().version)).build();
            onlyV2.start();
            assertThat(onlyV2.getAllInstances()).containsExactly(v2);
        }
    }

    @Test
    void zoneAwareProviderPrefersItsZoneAndFailsOver(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> registrant = discovery(a, "/zones"); ServiceDiscovery<Endpoint> consumer = discovery(b, "/zones")) {
            ServiceInstance<Endpoint> near = instance("s", "near", 1).toBuilder().zone("eu-1a").build();
            ServiceInstance<Endpoint> far = instance("s", "far", 2).toBuilder().zone("us-1a").build();
            registrant.registerService(near);
            registrant.registerService(far);
            ServiceProvider<Endpoint> provider = consumer.serviceProviderBuilder().serviceName("s")
                .providerStrategy(new ZoneAwareStrategy<>("eu-1a")).build();
            provider.start();
            for (int i = 0; i < 10; i++) {
                assertThat(provider.getInstance()).isEqualTo(near);
            }
            registrant.setHealth(near, Health.DOWN);
            await().atMost(WAIT).until(() -> far.equals(provider.getInstance()));
        }
    }

    @Test
    void misuseFailsClearly(BatonClient a) throws Exception {
        try (ServiceDiscovery<Endpoint> discovery = discovery(a, "/providermisuse")) {
            ServiceProvider<Endpoint> provider = discovery.serviceProviderBuilder().serviceName("s").build();
            assertThatThrownBy(provider::getInstance).isInstanceOf(IllegalStateException.class).hasMessageContaining("not started");
            provider.start();
            assertThatThrownBy(provider::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already started");
            provider.close();
            assertThatThrownBy(provider::getInstance).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            assertThatThrownBy(() -> discovery.serviceProviderBuilder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("serviceName is required");
            assertThatThrownBy(() -> discovery.serviceProviderBuilder().serviceName("a/b")).hasMessageContaining("'a/b'");

            ServiceProvider<Endpoint> closedWithDiscovery = discovery.serviceProviderBuilder().serviceName("s").build();
            closedWithDiscovery.start();
            discovery.close();
            assertThatThrownBy(closedWithDiscovery::getInstance).hasMessageContaining("closed");
        }
    }
}

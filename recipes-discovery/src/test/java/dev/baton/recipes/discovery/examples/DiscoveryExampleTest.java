package dev.baton.recipes.discovery.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.discovery.DownInstancePolicy;
import dev.baton.recipes.discovery.Health;
import dev.baton.recipes.discovery.ServiceCache;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.recipes.discovery.ServiceProvider;
import dev.baton.recipes.discovery.WeightedStrategy;
import dev.baton.recipes.discovery.ZoneAwareStrategy;
import dev.baton.test.EnsembleTest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The examples of docs/discovery.md, compiled and run. */
@EnsembleTest
class DiscoveryExampleTest {
    /** The payload the services of this example agree on. */
    public record Endpoint(String zone, String version) {
    }

    @Test
    void registerDiscoverAndBalance(BatonClient client) throws Exception {
        // --- a payments service registers itself ---
        ServiceDiscovery<Endpoint> payments = ServiceDiscoveryBuilder.builder(Endpoint.class)
            .client(client)
            .basePath("/services")
            .thisInstance(ServiceInstance.<Endpoint>builder()
                .name("payments").address("10.0.0.7").port(8080)
                .uriSpec("{scheme}://{address}:{port}/api")
                .zone("eu-west-1a").weight(2)
                .payload(new Endpoint("eu-west-1a", "2.4.0"))
                .build())
            .build();
        payments.start();

        // --- the orders service needs payments, and registers itself only if payments is there ---
        ServiceDiscovery<Endpoint> orders = ServiceDiscoveryBuilder.builder(Endpoint.class)
            .client(client)
            .basePath("/services")
            .thisInstance(ServiceInstance.<Endpoint>builder().name("orders").address("10.0.0.8").port(8080).build())
            .requireServices("payments")
            .dependencyTimeout(Duration.ofSeconds(30))   // wait for it at start-up rather than fail at once
            .build();
        orders.start();

        // --- orders calls payments: prefer its own zone, weighted inside it ---
        try (ServiceProvider<Endpoint> provider = orders.serviceProviderBuilder()
            .serviceName("payments")
            .providerStrategy(new ZoneAwareStrategy<>("eu-west-1a", ServiceInstance::zone, new WeightedStrategy<>()))
            .downInstancePolicy(new DownInstancePolicy(3, Duration.ofSeconds(10), Duration.ofSeconds(30)))
            .build()) {
            provider.start();
            ServiceInstance<Endpoint> target = provider.getInstance();   // null if nothing is usable
            assertThat(target).isNotNull();
            if (target != null) {
                URI uri = target.uri();                  // http://10.0.0.7:8080/api
                assertThat(uri).isEqualTo(URI.create("http://10.0.0.7:8080/api"));
                boolean callFailed = false;              // call(uri) ...
                if (callFailed) {
                    provider.noteError(target);          // three errors in 10 s: out for 30 s
                }
            }
        }

        // --- watch a service ---
        ServiceCache<Endpoint> cache = orders.serviceCacheBuilder().name("payments").build();
        List<String> seen = new CopyOnWriteArrayList<>();   // listeners run on another thread
        cache.addListener(() -> seen.add(cache.getInstances().toString()));
        cache.start();
        assertThat(cache.getInstances()).hasSize(1);

        // --- take payments out for maintenance, and back ---
        ServiceInstance<Endpoint> me = payments.registeredInstances().get(0);
        payments.setHealth(me, Health.MAINTENANCE);
        // a cache may fold changes that come close together into one (its read after the first event can already show
        // the second): wait for the listener to see the instance out before putting it back
        await().atMost(Duration.ofSeconds(20)).until(() -> seen.stream().anyMatch(s -> s.contains("MAINTENANCE")));
        payments.setHealth(me, Health.UP);
        await().atMost(Duration.ofSeconds(20)).until(() -> cache.getInstances().get(0).health() == Health.UP
            && seen.get(seen.size() - 1).equals(cache.getInstances().toString()));   // and then back in
        assertThat(seen.get(seen.size() - 1)).doesNotContain("MAINTENANCE").doesNotContain("disabled");

        orders.close();      // closes its caches and providers, unregisters orders
        payments.close();
    }
}

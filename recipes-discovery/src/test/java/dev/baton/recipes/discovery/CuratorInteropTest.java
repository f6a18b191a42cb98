package dev.baton.recipes.discovery;

import static dev.baton.recipes.discovery.Fixtures.discovery;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.x.discovery.UriSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A Curator 5.9 service and a Baton service on one base path see each other. */
@EnsembleTest
class CuratorInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @ConnectString
    String connect;
    private CuratorFramework curator;

    @BeforeEach
    void startCurator() throws Exception {
        curator = CuratorFrameworkFactory.newClient(connect, 10_000, 10_000, new RetryOneTime(100));
        curator.start();
        assertThat(curator.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
    }

    @AfterEach
    void stopCurator() {
        curator.close();
    }

    private org.apache.curator.x.discovery.ServiceDiscovery<Endpoint> curatorDiscovery(String basePath) throws Exception {
        org.apache.curator.x.discovery.ServiceDiscovery<Endpoint> d = org.apache.curator.x.discovery.ServiceDiscoveryBuilder
            .builder(Endpoint.class).client(curator).basePath(basePath).build();
        d.start();
        return d;
    }

    @Test
    void batonSeesWhatCuratorRegisters(BatonClient client) throws Exception {
        try (org.apache.curator.x.discovery.ServiceDiscovery<Endpoint> theirs = curatorDiscovery("/fromcurator");
             ServiceDiscovery<Endpoint> ours = discovery(client, "/fromcurator")) {
            ServiceProvider<Endpoint> provider = ours.serviceProviderBuilder().serviceName("orders").build();
            provider.start();
            ServiceCache<Endpoint> cache = ours.serviceCacheBuilder().name("orders").build();
            cache.start();

            org.apache.curator.x.discovery.ServiceInstance<Endpoint> registered = org.apache.curator.x.discovery.ServiceInstance
                .<Endpoint>builder().name("orders").id("curator-1").address("10.1.1.1").port(8080)
                .uriSpec(new UriSpec("{scheme}://{address}:{port}/v1")).payload(new Endpoint("eu-1", "c5.9")).build();
            theirs.registerService(registered);

            await().atMost(WAIT).until(() -> cache.getInstances().size() == 1);
            ServiceInstance<Endpoint> seen = cache.getInstances().get(0);
            assertThat(seen.id()).isEqualTo("curator-1");
            assertThat(seen.address()).isEqualTo("10.1.1.1");
            assertThat(seen.port()).isEqualTo(8080);
            assertThat(seen.payload()).isEqualTo(new Endpoint("eu-1", "c5.9"));
            assertThat(seen.registrationTimeUTC()).isEqualTo(registered.getRegistrationTimeUTC());
            assertThat(seen.buildUriSpec()).isEqualTo("http://10.1.1.1:8080/v1");
            assertThat(seen.enabled()).isTrue();
            assertThat(ours.queryForNames()).containsExactly("orders");
            assertThat(ours.queryForInstance("orders", "curator-1")).isEqualTo(seen);
            await().atMost(WAIT).until(() -> seen.equals(provider.getInstance()));

            theirs.unregisterService(registered);
            await().atMost(WAIT).until(() -> cache.getInstances().isEmpty() && provider.getInstance() == null);
        }
    }

    @Test
    void curatorSeesWhatBatonRegisters(BatonClient client) throws Exception {
        try (ServiceDiscovery<Endpoint> ours = discovery(client, "/frombaton");
             org.apache.curator.x.discovery.ServiceDiscovery<Endpoint> theirs = curatorDiscovery("/frombaton");
             org.apache.curator.x.discovery.ServiceProvider<Endpoint> provider = theirs.serviceProviderBuilder().serviceName("orders").build()) {
            provider.start();
            ServiceInstance<Endpoint> mine = ServiceInstance.<Endpoint>builder().name("orders").id("baton-1").address("10.2.2.2")
                .port(9090).sslPort(9443).uriSpec("{scheme}://{address}:{ssl-port}").payload(new Endpoint("us-1", "b0.1"))
                .zone("us-1").weight(4).build();
            ours.registerService(mine);

            org.apache.curator.x.discovery.ServiceInstance<Endpoint> seen = theirs.queryForInstance("orders", "baton-1");
            assertThat(seen.getName()).isEqualTo("orders");
            assertThat(seen.getAddress()).isEqualTo("10.2.2.2");
            assertThat(seen.getPort()).isEqualTo(9090);
            assertThat(seen.getSslPort()).isEqualTo(9443);
            assertThat(seen.getPayload()).isEqualTo(new Endpoint("us-1", "b0.1"));
            assertThat(seen.getRegistrationTimeUTC()).isEqualTo(mine.registrationTimeUTC());
            assertThat(seen.getServiceType()).isEqualTo(org.apache.curator.x.discovery.ServiceType.DYNAMIC);
            assertThat(seen.buildUriSpec()).isEqualTo("https://10.2.2.2:9443");
            assertThat(seen.isEnabled()).isTrue();
            assertThat(theirs.queryForNames()).containsExactly("orders");
            await().atMost(WAIT).until(() -> provider.getInstance() != null);
            assertThat(provider.getInstance().getId()).isEqualTo("baton-1");

            // health is Baton's; Curator honours the enabled flag that comes with it
            ours.setHealth(mine, Health.MAINTENANCE);
            await().atMost(WAIT).until(() -> provider.getAllInstances().isEmpty());
            ours.setHealth(mine, Health.UP);
            await().atMost(WAIT).until(() -> provider.getAllInstances().size() == 1);

            ours.unregisterService(mine);
            assertThat(theirs.queryForInstances("orders")).isEmpty();
        }
    }

    @Test
    void mixedFleetSharesOneProvider(BatonClient client) throws Exception {
        try (org.apache.curator.x.discovery.ServiceDiscovery<Endpoint> theirs = curatorDiscovery("/mixed");
             ServiceDiscovery<Endpoint> ours = discovery(client, "/mixed")) {
            theirs.registerService(org.apache.curator.x.discovery.ServiceInstance.<Endpoint>builder().name("s").id("a-curator")
                .address("h").port(1).payload(new Endpoint("z", "c")).build());
            ours.registerService(ServiceInstance.<Endpoint>builder().name("s").id("b-baton").address("h").port(2)
                .payload(new Endpoint("z", "b")).build());
            ServiceProvider<Endpoint> provider = ours.serviceProviderBuilder().serviceName("s").build();
            provider.start();
            assertThat(List.of(provider.getInstance().id(), provider.getInstance().id())).containsExactly("a-curator", "b-baton");
            assertThat(theirs.queryForInstances("s")).extracting(i -> i.getPayload().version).containsExactlyInAnyOrder("c", "b");
        }
    }
}

package dev.baton.recipes.discovery;

import static dev.baton.recipes.discovery.Fixtures.discovery;
import static dev.baton.recipes.discovery.Fixtures.instance;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.InvalidPathException;
import dev.baton.test.ChaosProxy;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

@EnsembleTest
class ServiceDiscoveryTest {
    @Test
    void registeredInstanceIsSeenFromAnotherClientAsAnEphemeralNode(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> registrant = discovery(a, "/seen"); ServiceDiscovery<Endpoint> reader = discovery(b, "/seen")) {
            ServiceInstance<Endpoint> orders = instance("orders", "o1", 8080);
            registrant.registerService(orders);
            registrant.registerService(instance("payments", "p1", 8081));

            assertThat(reader.queryForNames()).containsExactly("orders", "payments");
            assertThat(reader.queryForInstances("orders")).containsExactly(orders);
            assertThat(reader.queryForInstance("orders", "o1")).isEqualTo(orders);
            assertThat(reader.queryForInstance("orders", "nope")).isNull();
            assertThat(reader.queryForInstances("nothing")).isEmpty();
            Stat stat = b.checkExists().forPath("/seen/orders/o1");
            assertThat(stat.getEphemeralOwner()).isEqualTo(a.sessionId());
            assertThat(registrant.registeredInstances()).hasSize(2);
        }
    }

    @Test
    void updateRewritesAndUnregisterRemoves(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> registrant = discovery(a, "/update"); ServiceDiscovery<Endpoint> reader = discovery(b, "/update")) {
            ServiceInstance<Endpoint> v1 = instance("orders", "o1", 8080);
            registrant.registerService(v1);
            ServiceInstance<Endpoint> v2 = v1.toBuilder().payload(new Endpoint("z2", "v2")).port(9090).build();
            registrant.updateService(v2);
            assertThat(reader.queryForInstance("orders", "o1")).isEqualTo(v2);

            assertThat(registrant.unregisterService(v2)).isTrue();
            assertThat(reader.queryForInstance("orders", "o1")).isNull();
            assertThat(registrant.unregisterService(v2)).as("second unregister").isFalse();
            assertThatThrownBy(() -> registrant.updateService(v2)).isInstanceOf(DiscoveryException.class)
                .hasMessageContaining("not registered by this discovery");
        }
    }

    @Test
    void registeringTheSameIdAgainRewritesItsNode(BatonClient a) throws Exception {
        try (ServiceDiscovery<Endpoint> discovery = discovery(a, "/again")) {
            discovery.registerService(instance("orders", "o1", 1));
            ServiceInstance<Endpoint> second = instance("orders", "o1", 2);
            discovery.registerService(second);
            assertThat(discovery.queryForInstances("orders")).containsExactly(second);
        }
    }

    @Test
    void closeRemovesDynamicAndStaticInstancesButKeepsPermanentOnes(BatonClient a, BatonClient b) throws Exception {
        ServiceDiscovery<Endpoint> registrant = discovery(a, "/close");
        registrant.registerService(instance("s", "dynamic", 1));
        registrant.registerService(instance("s", "static", 2).toBuilder().serviceType(ServiceType.STATIC).build());
        ServiceInstance<Endpoint> permanent = instance("s", "permanent", 3).toBuilder().serviceType(ServiceType.PERMANENT).build();
        registrant.registerService(permanent);
        assertThat(b.checkExists().forPath("/close/s/permanent").getEphemeralOwner()).isZero();
        assertThat(b.checkExists().forPath("/close/s/static").getEphemeralOwner()).isZero();
        registrant.close();
        try (ServiceDiscovery<Endpoint> reader = discovery(b, "/close")) {
            assertThat(reader.queryForInstances("s")).containsExactly(permanent);
        }
    }

    @Test
    void ephemeralInstancesGoWithTheRegistrantsSession(BatonClient b, @dev.baton.test.ConnectString String connect) throws Exception {
        BatonClient shortLived = dev.baton.test.TestClients.started(connect, java.time.Duration.ofSeconds(5));
        ServiceDiscovery<Endpoint> registrant = discovery(shortLived, "/session");
        registrant.registerService(instance("s", "i1", 1));
        shortLived.close();
        try (ServiceDiscovery<Endpoint> reader = discovery(b, "/session")) {
            assertThat(reader.queryForInstances("s")).isEmpty();
        }
    }

    @Test
    void dynamicSequentialInstancesGetASequenceSuffixAndCanBeUpdatedAndRemoved(BatonClient a) throws Exception {
        try (ServiceDiscovery<Endpoint> discovery = discovery(a, "/sequential")) {
            ServiceInstance<Endpoint> seq = instance("s", "worker-", 1).toBuilder().serviceType(ServiceType.DYNAMIC_SEQUENTIAL).build();
            discovery.registerService(seq);
            assertThat(a.getChildren().forPath("/sequential/s")).singleElement().asString().matches("worker-\\d{10}");
            discovery.updateService(seq.toBuilder().port(2).build());
            assertThat(discovery.queryForInstances("s")).singleElement().extracting(ServiceInstance::port).isEqualTo(2);
            assertThat(a.getChildren().forPath("/sequential/s")).hasSize(1);
            discovery.unregisterService(seq);
            assertThat(discovery.queryForInstances("s")).isEmpty();
        }
    }

    @Test
    void thisInstanceIsRegisteredByStart(BatonClient a) throws Exception {
        ServiceInstance<Endpoint> me = instance("orders", "me", 80);
        try (ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class).client(a).basePath("/me")
            .thisInstance(me).build()) {
            discovery.start();
            assertThat(discovery.queryForInstance("orders", "me")).isEqualTo(me);
        }
    }

    @Test
    void anIdHeldByAnotherSessionIsTakenOverByTheRegistrant(BatonClient a, BatonClient other) throws Exception {
        // what a previous session of this process leaves behind until the servers expire it
        other.create().withMode(CreateMode.EPHEMERAL).creatingParentsIfNeeded().forPath("/takeover/s/i1", "stale".getBytes(UTF_8));
        try (ServiceDiscovery<Endpoint> discovery = discovery(a, "/takeover")) {
            ServiceInstance<Endpoint> fresh = instance("s", "i1", 1);
            discovery.registerService(fresh);
            assertThat(a.checkExists().forPath("/takeover/s/i1").getEphemeralOwner()).isEqualTo(a.sessionId());
            assertThat(discovery.queryForInstances("s")).containsExactly(fresh);
        }
    }

    @Test
    void unreadableNodesAreSkippedByQueries(BatonClient a) throws Exception {
        try (ServiceDiscovery<Endpoint> discovery = discovery(a, "/garbage")) {
            ServiceInstance<Endpoint> good = instance("s", "good", 1);
            discovery.registerService(good);
            a.create().forPath("/garbage/s/bad", "{not json".getBytes(UTF_8));
            a.create().forPath("/garbage/s/empty");
            a.create().forPath("/garbage/s/wrongpayload", "{\"name\":\"s\",\"id\":\"wrongpayload\",\"payload\":[1,2,3]}".getBytes(UTF_8));
            assertThat(discovery.queryForInstances("s")).containsExactly(good);
            assertThat(discovery.queryForInstance("s", "bad")).isNull();
        }
    }

    @Test
    void aRegistrationThatFailedForLackOfConnectionIsWrittenWhenTheConnectionReturns(BatonClient observer,
                                                                                    @dev.baton.test.ConnectString String connect)
        throws Exception {
        try (dev.baton.test.ChaosProxy proxy = dev.baton.test.ChaosProxy.start(connect);
             BatonClient flaky = dev.baton.test.TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(java.time.Duration.ofSeconds(20)).connectionTimeout(java.time.Duration.ofSeconds(1)));
             ServiceDiscovery<Endpoint> registrant = discovery(flaky, "/offline");
             ServiceDiscovery<Endpoint> reader = discovery(observer, "/offline")) {
            ServiceInstance<Endpoint> first = instance("s", "first", 1);
            registrant.registerService(first);
            proxy.cut();
            ServiceInstance<Endpoint> offline = instance("s", "offline", 2);
            assertThatThrownBy(() -> registrant.registerService(offline)).isInstanceOf(dev.baton.framework.ConnectionLossException.class);
            ServiceInstance<Endpoint> changed = first.toBuilder().port(11).build();
            assertThatThrownBy(() -> registrant.updateService(changed)).isInstanceOf(dev.baton.framework.ConnectionLossException.class);
            assertThat(registrant.registeredInstances()).as("both are still wanted").containsExactlyInAnyOrder(changed, offline);
            proxy.heal();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                .until(() -> reader.queryForInstances("s").equals(java.util.List.of(changed, offline)));
        }
    }

    @Test
    void misuseFailsAtOnceWithAClearMessage(BatonClient a) throws Exception {
        ServiceDiscovery<Endpoint> latent = ServiceDiscoveryBuilder.builder(Endpoint.class).client(a).basePath("/misuse").build();
        assertThatThrownBy(() -> latent.registerService(instance("s", "i", 1))).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("not started");
        latent.start();
        assertThatThrownBy(latent::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already started");
        latent.registerService(instance("s", "i", 1));
        assertThatThrownBy(() -> latent.registerService(instance("other", "i", 1))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("already registered for service 's'");
        assertThatThrownBy(() -> latent.updateService(instance("other", "i", 1))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("cannot move it to 'other'");
        ServiceInstance<Endpoint> huge = instance("s", "huge", 1).toBuilder().payload(new Endpoint("z", "v".repeat(70_000))).build();
        assertThatThrownBy(() -> latent.registerService(huge)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("maxInstanceBytes");
        assertThat(latent.queryForInstance("s", "huge")).isNull();
        assertThatThrownBy(() -> latent.queryForInstances("a/b")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'a/b'");
        latent.close();
        assertThatThrownBy(latent::queryForNames).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> latent.serviceCacheBuilder().name("s").build()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void builderChecksEachSetting(BatonClient a) {
        assertThatThrownBy(() -> ServiceDiscoveryBuilder.builder(Endpoint.class).basePath("services"))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("'services'");
        assertThatThrownBy(() -> ServiceDiscoveryBuilder.builder(Endpoint.class).basePath("/x").build())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("client is required");
        assertThatThrownBy(() -> ServiceDiscoveryBuilder.builder(Endpoint.class).client(a).build())
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("basePath is required");
        assertThatThrownBy(() -> ServiceDiscoveryBuilder.builder(Endpoint.class).maxInstanceBytes(10))
            .hasMessageContaining("maxInstanceBytes must be 1024 to 1048576, was 10");
        assertThatThrownBy(() -> ServiceDiscoveryBuilder.builder(Endpoint.class).requireServices("ok", "not/ok"))
            .hasMessageContaining("'not/ok'");
        assertThatThrownBy(() -> ServiceDiscoveryBuilder.builder(Endpoint.class).dependencyTimeout(java.time.Duration.ofSeconds(-1)))
            .hasMessageContaining("must not be negative");
    }

    @Test
    void closeWithoutAConnectionDoesNotWaitForTheEnsembleAndTheNodeGoesOnceItIsBack(BatonClient observer,
                                                                                     @ConnectString String connect)
        throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(connect);
             // a connection timeout far above the close's own wait, so the two cannot be confused
             BatonClient client = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(90)).connectionTimeout(Duration.ofSeconds(60)))) {
            ServiceDiscovery<Endpoint> discovery = discovery(client, "/closecut");
            discovery.registerService(instance("s", "leaving", 1));
            assertThat(observer.checkExists().forPath("/closecut/s/leaving")).isNotNull();
            long session = client.sessionId();
            proxy.cut();
            await().atMost(Duration.ofSeconds(20)).until(() -> !client.connectionState().isConnected());

            long start = System.nanoTime();
            discovery.close();
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(took).as("close waits %s for the connection, not the client's 60 s connection timeout",
                Registrations.CLOSE_RECONNECT_WAIT).isLessThan(Duration.ofSeconds(30));
            proxy.heal();
            await("the delete finishes in the background once connected").atMost(Duration.ofSeconds(20))
                .until(() -> observer.checkExists().forPath("/closecut/s/leaving") == null);
            assertThat(client.sessionId()).as("same session: the node went by the delete, not with its session").isEqualTo(session);
        }
    }

    @Test
    void closingTheDiscoveryAfterItsClientWasClosedDoesNotThrow(@ConnectString String connect) throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        ServiceDiscovery<Endpoint> discovery = discovery(client, "/closedfirst");
        discovery.registerService(instance("s", "gone", 1));
        client.close();
        discovery.close(); // what try-with-resources does when the client was opened after the discovery
        assertThat(discovery.registeredInstances()).isEmpty();
        ServiceDiscovery<Endpoint> late = ServiceDiscoveryBuilder.builder(Endpoint.class).client(client).basePath("/closedfirst").build();
        assertThatThrownBy(late::start).isInstanceOf(dev.baton.framework.ClientClosedException.class)
            .hasMessageContaining("/closedfirst");
    }

    @Test
    void startingOnAClientThatWasNeverStartedFailsAtOnceAndWorksOnceItIs(@ConnectString String connect) throws Exception {
        // Until 2026-11-28 start() returned and kept thisInstance "to register at the next
        // connection", which a client never started never makes: the service stayed invisible.
        try (BatonClient unstarted = BatonClient.builder().connectString(connect).build();
             ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class).client(unstarted)
                 .basePath("/unstarted").thisInstance(instance("orders", "o-1", 8080)).build()) {
            assertThatThrownBy(discovery::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the service discovery /unstarted: the client is not started; call start() first");
            assertThat(discovery.registeredInstances()).isEmpty();

            unstarted.start();
            discovery.start();   // registers at the client's first connection
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(discovery.queryForInstance("orders", "o-1")).as("registered once started again").isNotNull());
        }
    }
}

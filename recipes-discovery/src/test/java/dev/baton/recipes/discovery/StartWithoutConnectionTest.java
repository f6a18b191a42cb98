package dev.baton.recipes.discovery;

import static dev.baton.recipes.discovery.Fixtures.discovery;
import static dev.baton.recipes.discovery.Fixtures.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CutOffClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A service that boots while the ensemble is out of reach: {@code start()} returns without a
 * connection, and the discovery, its caches and providers do their work once it comes.
 */
@EnsembleTest
class StartWithoutConnectionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void discoveryStartsWithoutAConnectionAndRegistersItsInstanceOnceConnected(BatonClient other) throws Exception {
        ServiceInstance<Endpoint> me = instance("orders", "o1", 8080);
        try (CutOffClient cutOff = CutOffClient.start(ensemble);
             ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class).client(cutOff.client())
                 .basePath("/offline/register").thisInstance(me).build();
             ServiceDiscovery<Endpoint> reader = discovery(other, "/offline/register")) {
            cutOff.assertStartsPromptly("discovery", discovery::start);
            assertThat(discovery.registeredInstances()).as("kept, to be written at the connection").containsExactly(me);
            assertThat(reader.queryForInstances("orders")).isEmpty();
            cutOff.outlastConnectionTimeout();

            cutOff.connect();

            await().atMost(WAIT).until(() -> reader.queryForInstances("orders").contains(me));
            assertThat(other.checkExists().forPath("/offline/register/orders/o1").getEphemeralOwner())
                .isEqualTo(cutOff.client().sessionId());
        }
    }

    @Test
    void cacheAndProviderStartWithoutAConnectionAndFillOnceConnected(BatonClient other) throws Exception {
        ServiceInstance<Endpoint> payments = instance("payments", "p1", 8081);
        try (ServiceDiscovery<Endpoint> registrant = discovery(other, "/offline/cache");
             CutOffClient cutOff = CutOffClient.start(ensemble);
             ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class).client(cutOff.client())
                 .basePath("/offline/cache").build()) {
            registrant.registerService(payments);
            cutOff.assertStartsPromptly("discovery", discovery::start);
            ServiceCache<Endpoint> cache = discovery.serviceCacheBuilder().name("payments").build();
            ServiceProvider<Endpoint> provider = discovery.serviceProviderBuilder().serviceName("payments").build();
            cutOff.assertStartsPromptly("service cache", cache::start);
            cutOff.assertStartsPromptly("service provider", provider::start);
            assertThat(cache.getInstances()).isEmpty();
            assertThat(provider.getInstance()).isNull();
            cutOff.outlastConnectionTimeout();

            cutOff.connect();

            assertThat(cache.awaitLoaded(WAIT)).as("the cache loaded once connected").isTrue();
            await().atMost(WAIT).until(() -> cache.getInstances().contains(payments) && payments.equals(provider.getInstance()));
            ServiceInstance<Endpoint> second = instance("payments", "p2", 8082);
            registrant.registerService(second);
            await().atMost(WAIT).until(() -> cache.getInstances().contains(second));
        }
    }

    @Test
    void requiredServicesCannotBeCheckedWithoutAConnectionSoAZeroWaitFailsAtOnce() throws Exception {
        try (CutOffClient cutOff = CutOffClient.start(ensemble)) {
            ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class).client(cutOff.client())
                .basePath("/offline/deps-now").thisInstance(instance("orders", "o1", 1)).requireServices("payments").build();
            cutOff.assertStartsPromptly("discovery", () -> assertThatThrownBy(discovery::start)
                .isInstanceOfSatisfying(MissingDependencyException.class, e -> {
                    assertThat(e.missing()).containsExactly("payments");
                    assertThat(e).hasMessageContaining("no connection");
                }));
        }
    }

    @Test
    void withADependencyTimeoutStartWaitsForTheConnectionAndTheServicesThenRegisters(BatonClient other) throws Exception {
        ServiceInstance<Endpoint> me = instance("orders", "o1", 1);
        try (ServiceDiscovery<Endpoint> others = discovery(other, "/offline/deps-wait");
             CutOffClient cutOff = CutOffClient.start(ensemble);
             ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class).client(cutOff.client())
                 .basePath("/offline/deps-wait").thisInstance(me).requireServices("payments").dependencyTimeout(WAIT).build()) {
            others.registerService(instance("payments", "p1", 2));
            CompletableFuture<Void> started = new CompletableFuture<>();
            Thread starting = new Thread(() -> {
                try {
                    discovery.start();
                    started.complete(null);
                } catch (Throwable e) {
                    started.completeExceptionally(e);
                }
            });
            starting.start();
            // connect only once start() is waiting, so that it began without a connection
            await().atMost(WAIT).until(() -> starting.getState() == Thread.State.TIMED_WAITING);
            assertThat(started).isNotDone();
            cutOff.outlastConnectionTimeout();

            cutOff.connect();

            started.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(others.queryForInstances("orders")).containsExactly(me);
        }
    }
}

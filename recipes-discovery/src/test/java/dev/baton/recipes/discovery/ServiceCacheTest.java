package dev.baton.recipes.discovery;

import static dev.baton.recipes.discovery.Fixtures.discovery;
import static dev.baton.recipes.discovery.Fixtures.instance;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ChaosProxy;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@EnsembleTest
class ServiceCacheTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void cacheFollowsRegistrationsFromAnotherClientAndTellsItsListeners(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> registrant = discovery(a, "/follow"); ServiceDiscovery<Endpoint> reader = discovery(b, "/follow")) {
            ServiceInstance<Endpoint> first = instance("orders", "o1", 1);
            registrant.registerService(first);
            ServiceCache<Endpoint> cache = reader.serviceCacheBuilder().name("orders").build();
            AtomicInteger changes = new AtomicInteger();
            cache.addListener(changes::incrementAndGet);
            cache.start();
            assertThat(cache.getInstances()).as("loaded by start()").containsExactly(first);
            assertThat(cache.awaitLoaded(Duration.ofMillis(Long.MAX_VALUE))).as("a timeout too long to count: no limit").isTrue();
            assertThatThrownBy(() -> cache.awaitLoaded(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT-1S");

            ServiceInstance<Endpoint> second = instance("orders", "o2", 2);
            registrant.registerService(second);
            await().atMost(WAIT).until(() -> cache.getInstances().equals(List.of(first, second)));
            ServiceInstance<Endpoint> changed = first.toBuilder().payload(new Endpoint("z9", "v9")).build();
            registrant.updateService(changed);
            await().atMost(WAIT).until(() -> cache.getInstances().contains(changed));
            registrant.unregisterService(second);
            await().atMost(WAIT).until(() -> cache.getInstances().equals(List.of(changed)));
            await().atMost(WAIT).untilAsserted(() -> assertThat(changes.get()).isGreaterThanOrEqualTo(3));
        }
    }

    @Test
    void aCacheNeverStartedRefusesToAnswerInsteadOfSayingThereAreNoInstances(BatonClient client) throws Exception {
        // Until 2026-11-28 a cache whose start() was forgotten answered an empty list for ever: a
        // load balancer built on it saw no instances and nothing said why (a provider refused).
        try (ServiceDiscovery<Endpoint> discovery = discovery(client, "/unstartedcache")) {
            ServiceInstance<Endpoint> one = instance("orders", "o1", 1);
            discovery.registerService(one);
            ServiceCache<Endpoint> cache = discovery.serviceCacheBuilder().name("orders").build();
            assertThatThrownBy(cache::getInstances).isInstanceOf(IllegalStateException.class)
                .hasMessage("service cache of 'orders' is not started (call start() first)");
            assertThatThrownBy(cache::instances).isInstanceOf(IllegalStateException.class)
                .hasMessage("service cache of 'orders' is not started (call start() first)");

            cache.start();
            assertThat(cache.getInstances()).containsExactly(one);
            cache.close();
            assertThat(cache.getInstances()).as("a closed cache still answers with what it last saw").containsExactly(one);
        }
    }

    @Test
    void garbageAndHugeNodesAreSkippedWithoutDisturbingTheRest(BatonClient a, BatonClient b) throws Exception {
        try (ServiceDiscovery<Endpoint> registrant = discovery(a, "/hostile"); ServiceDiscovery<Endpoint> reader = discovery(b, "/hostile")) {
            ServiceInstance<Endpoint> good = instance("s", "good", 1);
            registrant.registerService(good);
            a.create().forPath("/hostile/s/garbage", "\u0000\u0001binary".getBytes(UTF_8));
            a.create().forPath("/hostile/s/huge", ("{\"name\":\"s\",\"id\":\"huge\",\"payload\":{\"zone\":\"" + "x".repeat(900_000) + "\"}}")
                .getBytes(UTF_8));
            a.create().forPath("/hostile/s/gadget", ("{\"name\":\"s\",\"id\":\"gadget\",\"payload\":{\"@class\":\"dev.baton.recipes.discovery.Gadget\"}}").getBytes(UTF_8));
            a.create().forPath("/hostile/s/garbage/grandchild", "ignored".getBytes(UTF_8));

            ServiceCache<Endpoint> cache = reader.serviceCacheBuilder().name("s").build();
            cache.start();
            assertThat(cache.getInstances()).extracting(ServiceInstance::id).containsExactly("gadget", "good");
            assertThat(cache.getInstances().get(0).payload()).isEqualTo(new Endpoint());

            // garbage turning into an instance appears; an instance turning into garbage goes; the rest stays
            ServiceInstance<Endpoint> fixed = instance("s", "garbage", 2);
            a.setData().forPath("/hostile/s/garbage", new InstanceJson<>(Endpoint.class, ServiceDiscoveryBuilder.defaultMapper(), 65536)
                .encode(fixed));
            await().atMost(WAIT).until(() -> cache.getInstances().contains(fixed));
            a.setData().forPath("/hostile/s/gadget", "[]".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> cache.getInstances().stream().map(ServiceInstance::id).toList().equals(List.of("garbage", "good")));
        }
    }

    @Test
    void registrantsExpiredInstanceDisappearsThenComesBackByItself(BatonClient observer, @ConnectString String connect) throws Exception {
        try (BatonClient registrantClient = TestClients.started(connect, Duration.ofSeconds(3));
             ServiceDiscovery<Endpoint> registrant = discovery(registrantClient, "/expiry");
             ServiceDiscovery<Endpoint> reader = discovery(observer, "/expiry")) {
            ServiceInstance<Endpoint> me = instance("orders", "me", 1);
            registrant.registerService(me);
            ServiceCache<Endpoint> cache = reader.serviceCacheBuilder().name("orders").build();
            List<Integer> sizes = new CopyOnWriteArrayList<>();
            cache.addListener(() -> sizes.add(cache.getInstances().size()));
            cache.start();
            assertThat(cache.getInstances()).containsExactly(me);
            long oldSession = registrantClient.sessionId();

            SessionKiller.expire(registrantClient, connect, WAIT);

            await().atMost(WAIT).until(() -> sizes.contains(0) && cache.getInstances().equals(List.of(me)));
            assertThat(sizes).as("the cache saw it go, then come back").containsSubsequence(0, 1);
            long newSession = registrantClient.sessionId();
            assertThat(newSession).isNotEqualTo(oldSession);
            assertThat(observer.checkExists().forPath("/expiry/orders/me").getEphemeralOwner()).isEqualTo(newSession);
        }
    }

    @Test
    void cacheConvergesAfterItsOwnSessionExpires(BatonClient a, @ConnectString String connect) throws Exception {
        try (BatonClient cacheClient = TestClients.started(connect, Duration.ofSeconds(3));
             ServiceDiscovery<Endpoint> registrant = discovery(a, "/ownexpiry");
             ServiceDiscovery<Endpoint> reader = discovery(cacheClient, "/ownexpiry")) {
            ServiceInstance<Endpoint> stays = instance("s", "stays", 1);
            ServiceInstance<Endpoint> goes = instance("s", "goes", 2);
            registrant.registerService(stays);
            registrant.registerService(goes);
            ServiceCache<Endpoint> cache = reader.serviceCacheBuilder().name("s").build();
            cache.start();
            assertThat(cache.getInstances()).hasSize(2);

            SessionKiller.expire(cacheClient, connect, WAIT);
            ServiceInstance<Endpoint> comes = instance("s", "comes", 3);
            registrant.unregisterService(goes);
            registrant.registerService(comes);

            await().atMost(WAIT).until(() -> cache.getInstances().equals(List.of(comes, stays)));
            // and it keeps following with the new session's watch
            registrant.unregisterService(stays);
            await().atMost(WAIT).until(() -> cache.getInstances().equals(List.of(comes)));
        }
    }

    @Test
    void cacheCatchesUpWithChangesMadeWhileItsConnectionWasCut(BatonClient a, @ConnectString String connect) throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(connect);
             BatonClient cacheClient = TestClients.started(proxy.connectString(), Duration.ofSeconds(20));
             ServiceDiscovery<Endpoint> registrant = discovery(a, "/cut");
             ServiceDiscovery<Endpoint> reader = discovery(cacheClient, "/cut")) {
            ServiceInstance<Endpoint> before = instance("s", "before", 1);
            registrant.registerService(before);
            ServiceCache<Endpoint> cache = reader.serviceCacheBuilder().name("s").build();
            cache.start();

            proxy.cut();
            await().atMost(WAIT).until(() -> !cacheClient.connectionState().isConnected());
            ServiceInstance<Endpoint> during = instance("s", "during", 2);
            registrant.registerService(during);
            registrant.unregisterService(before);
            assertThat(cache.getInstances()).as("a disconnected cache keeps its last content").containsExactly(before);
            proxy.heal();

            await().atMost(WAIT).until(() -> cache.getInstances().equals(List.of(during)));
        }
    }

    @Test
    void aThrowingListenerIsLoggedAndKeepsBeingCalled(BatonClient a) throws Exception {
        try (ServiceDiscovery<Endpoint> discovery = discovery(a, "/throwing")) {
            ServiceCache<Endpoint> cache = discovery.serviceCacheBuilder().name("s").build();
            AtomicInteger calls = new AtomicInteger();
            cache.addListener(() -> {
                calls.incrementAndGet();
                throw new IllegalStateException("listener bug");
            });
            cache.start();
            discovery.registerService(instance("s", "1", 1));
            await().atMost(WAIT).until(() -> calls.get() == 1);
            discovery.registerService(instance("s", "2", 2));
            await().atMost(WAIT).until(() -> calls.get() == 2 && cache.getInstances().size() == 2);
        }
    }

    @Test
    void closingTheDiscoveryClosesItsCaches(BatonClient a, BatonClient b) throws Exception {
        ServiceDiscovery<Endpoint> reader = discovery(b, "/closecache");
        ServiceCache<Endpoint> cache = reader.serviceCacheBuilder().name("s").build();
        cache.start();
        reader.close();
        try (ServiceDiscovery<Endpoint> registrant = discovery(a, "/closecache")) {
            registrant.registerService(instance("s", "late", 1));
            assertThat(registrant.queryForInstances("s")).hasSize(1);
            assertThat(cache.getInstances()).as("a closed cache no longer changes").isEmpty();
        }
    }

    @Test
    void aCacheOnAClosedClientFailsAtOnceInsteadOfWaitingForItsStartTimeout(@ConnectString String connect) throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        ServiceDiscovery<Endpoint> discovery = discovery(client, "/closedcache");
        client.close();
        ServiceCache<Endpoint> cache = discovery.serviceCacheBuilder().name("s").build();
        assertThatThrownBy(cache::start).isInstanceOf(dev.baton.framework.ClientClosedException.class)
            .hasMessageContaining("/closedcache/s");
        discovery.close();
    }
}

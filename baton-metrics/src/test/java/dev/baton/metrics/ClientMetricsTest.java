package dev.baton.metrics;

import static dev.baton.metrics.Meters.count;
import static dev.baton.metrics.Meters.gauge;
import static dev.baton.metrics.Meters.timed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientHealth;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.NoConnectionException;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/** The client's meters and health move as its connection and session do. */
@EnsembleTest
class ClientMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    @Test
    void requestsAreTimedByOperationAndOutcome(BatonClient client) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BatonMetrics.of(client).bindTo(registry);

        client.create().forPath("/timed", new byte[0]);
        assertThat(client.checkExists().forPath("/timed")).isNotNull();
        assertThat(client.checkExists().forPath("/not-there")).isNull();

        assertThat(timed(registry, "baton.client.requests", "operation", "create", "outcome", "success")).isEqualTo(1);
        assertThat(timed(registry, "baton.client.requests", "outcome", "success")).as("every answered attempt").isGreaterThanOrEqualTo(3);
        assertThat(gauge(registry, "baton.client.session.timeout"))
            .as("the granted timeout, in the registry's base unit (seconds)").isEqualTo(client.negotiatedSessionTimeout().toMillis() / 1000.0);
        assertThat(gauge(registry, "baton.client.connection.state", "state", "connected")).isEqualTo(1);
        assertThat(gauge(registry, "baton.client.connection.state", "state", "suspended")).isZero();
    }

    @Test
    void anExpiryCountsAnExpirationAndAReconnect() throws Exception {
        try (BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            BatonMetrics.of(client).bindTo(registry);
            long first = client.sessionId();
            client.create().withMode(CreateMode.EPHEMERAL).forPath("/expiring");

            SessionKiller.expire(client, ensemble.connectString(), WAIT);

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(count(registry, "baton.client.session.expirations")).isEqualTo(1);
                assertThat(count(registry, "baton.client.reconnects")).isEqualTo(1);
                assertThat(gauge(registry, "baton.client.connection.state", "state", "reconnected")).isEqualTo(1);
            });
            assertThat(client.sessionId()).isNotEqualTo(first);
            assertThat(client.health().healthy()).isTrue();
        }
    }

    @Test
    void healthTurnsUnhealthyWhileDisconnectedAndBackAfter() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofSeconds(2)))) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            BatonMetrics.of(client).bindTo(registry);

            ClientHealth before = client.health();
            assertThat(before.healthy()).as("%s", before).isTrue();
            assertThat(before.state()).isEqualTo(ConnectionState.CONNECTED);
            assertThat(before.sessionId()).isEqualTo(client.sessionId()).isNotZero();
            assertThat(before.negotiatedSessionTimeout()).isEqualTo(client.negotiatedSessionTimeout());
            String port = proxy.connectString().substring(proxy.connectString().lastIndexOf(':'));
            assertThat(before.connectedServer()).as("the proxy the client connects through").hasValueSatisfying(s -> assertThat(s).endsWith(port));
            assertThat(before.sinceLastContact()).isLessThan(Duration.ofSeconds(20));
            assertThat(before.retriesLastMinute()).isZero();
            assertThat(gauge(registry, "baton.client.healthy")).isEqualTo(1);

            proxy.cut();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.SUSPENDED);
            ClientHealth cut = client.health();
            assertThat(cut.healthy()).as("%s", cut).isFalse();
            assertThat(cut.reason()).contains("disconnected");
            assertThat(cut.connectedServer()).isEmpty();
            assertThat(cut.sessionId()).as("the session may live on").isEqualTo(before.sessionId());
            assertThat(gauge(registry, "baton.client.healthy")).isZero();
            await().atMost(WAIT).untilAsserted(() -> assertThat(count(registry, "baton.client.suspensions")).isEqualTo(1));

            proxy.heal();
            await().atMost(WAIT).until(() -> client.health().healthy());
            ClientHealth after = client.health();
            assertThat(after.state()).isEqualTo(ConnectionState.RECONNECTED);
            assertThat(after.sessionId()).isEqualTo(before.sessionId());
            assertThat(after.connectedServer()).isPresent();
            await().atMost(WAIT).untilAsserted(() -> assertThat(count(registry, "baton.client.reconnects")).isEqualTo(1));
            assertThat(count(registry, "baton.client.session.expirations")).isZero();
        }
    }

    @Test
    void anOperationThatFindsNoConnectionCountsAsGivenUp() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofSeconds(1)))) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            BatonMetrics.of(client).bindTo(registry);

            proxy.cut();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.SUSPENDED);

            assertThatThrownBy(() -> client.create().forPath("/never", new byte[0])).isInstanceOf(NoConnectionException.class);
            assertThat(count(registry, "baton.client.retries.exhausted", "operation", "create")).isEqualTo(1);
            assertThatThrownBy(() -> client.getData().forPathAsync("/never").join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(NoConnectionException.class);
            assertThat(count(registry, "baton.client.retries.exhausted", "operation", "getData")).isEqualTo(1);
            assertThat(timed(registry, "baton.client.requests")).as("neither was sent").isZero();
        }
    }

    @Test
    void aClosedBindingStopsCounting(BatonClient client) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BatonMetrics metrics = BatonMetrics.of(client);
        metrics.bindTo(registry);
        client.create().forPath("/counted", new byte[0]);
        metrics.close();
        client.create().forPath("/not-counted", new byte[0]);
        assertThat(timed(registry, "baton.client.requests", "operation", "create")).isEqualTo(1);
        assertThat(client.observer()).as("no observer left: recipes report to the no-op").isSameAs(dev.baton.framework.BatonObserver.NONE);
    }

    @Test
    void aClientBuiltAgainAndBoundToTheSameRegistryShowsItsOwnStateAndHolds() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        String[] invoices = {"recipe", "mutex", "name", "invoices"};
        try (BatonClient first = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            BatonMetrics metrics = BatonMetrics.builder(first).name("invoices", "/rebind/invoices").build();
            metrics.bindTo(registry);
            new InterProcessMutex(first, "/rebind/invoices").acquire();
            assertThat(gauge(registry, "baton.lock.holders", invoices)).isEqualTo(1);
            // a service rebuilds its client (new connect string, a restart of its wiring): it closes the old one
            metrics.close();
        }
        try (BatonClient second = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            BatonMetrics.builder(second).name("invoices", "/rebind/invoices").build().bindTo(registry);
            assertThat(gauge(registry, "baton.client.healthy")).as("the new client is connected").isEqualTo(1);
            assertThat(gauge(registry, "baton.client.connection.state", "state", "connected")).isEqualTo(1);
            assertThat(gauge(registry, "baton.client.connection.state", "state", "lost")).isZero();
            InterProcessMutex lock = new InterProcessMutex(second, "/rebind/invoices");
            lock.acquire();
            assertThat(gauge(registry, "baton.lock.holders", invoices)).as("the new client's one hold").isEqualTo(1);
            lock.release();
            assertThat(gauge(registry, "baton.lock.holders", invoices)).isZero();
            assertThat(timed(registry, "baton.lock.acquire", "name", "invoices", "outcome", "acquired"))
                .as("counts and timings carry on across the two bindings").isEqualTo(2);
        }
    }

    @Test
    void closingTheClientClosesItsBindingAfterItsRecipesReportedTheirEnds() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        String[] invoices = {"recipe", "mutex", "name", "invoices"};
        BatonClient first = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        BatonMetrics.builder(first).name("invoices", "/closed-with/invoices").build().bindTo(registry);
        new InterProcessMutex(first, "/closed-with/invoices").acquire();
        assertThat(gauge(registry, "baton.lock.holders", invoices)).isEqualTo(1);
        // the service closes its client and forgets the binding
        first.close();
        assertThat(timed(registry, "baton.lock.held", invoices)).as("the hold the close ended was timed before the binding closed")
            .isEqualTo(1);
        assertThat(registry.find("baton.lock.holders").gauge()).as("no frozen gauge of a closed client").isNull();
        assertThat(registry.find("baton.client.healthy").gauge()).isNull();
        assertThatThrownBy(() -> BatonMetrics.of(first).bindTo(new SimpleMeterRegistry())).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("client is closed");
        try (BatonClient second = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            BatonMetrics.builder(second).name("invoices", "/closed-with/invoices").build().bindTo(registry);
            assertThat(gauge(registry, "baton.client.healthy")).as("the new client, bound with the same tags").isEqualTo(1);
        }
    }

    @Test
    void aClientClosedWhileItsBindingIsBeingBoundLeavesNoGaugeBehind() throws Exception {
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        // another thread (a shutting-down application) closes the client once bindTo has checked it is open:
        // here, deterministically, while the registry registers the binding's first gauge
        SimpleMeterRegistry registry = new SimpleMeterRegistry() {
            @Override
            protected <T> io.micrometer.core.instrument.Gauge newGauge(io.micrometer.core.instrument.Meter.Id id, T obj,
                                                                       java.util.function.ToDoubleFunction<T> valueFunction) {
                client.close();
                return super.newGauge(id, obj, valueFunction);
            }
        };
        assertThatThrownBy(() -> BatonMetrics.of(client).bindTo(registry)).isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("the client closed while this BatonMetrics was being bound");
        assertThat(registry.find("baton.client.healthy").gauge()).as("a frozen gauge of the closed client").isNull();
        assertThat(registry.find("baton.client.connection.state").gauges()).isEmpty();
    }

    @Test
    void aSecondLiveClientWithTheSameTagsIsRefusedWithTheWayOut(BatonClient a, BatonClient b) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BatonMetrics.of(a).bindTo(registry);
        assertThatThrownBy(() -> BatonMetrics.of(b).bindTo(registry))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("already bound").hasMessageContaining("tags(");
        BatonMetrics.builder(b).tags(io.micrometer.core.instrument.Tags.of("client", "b")).build().bindTo(registry);
        assertThat(gauge(registry, "baton.client.healthy", "client", "b")).isEqualTo(1);
    }
    /**
     * A registry with common tags of its own (Spring Boot's {@code management.metrics.tags.*}, an
     * application or host tag) keeps the guarantee: a second client with the same tags is refused, and
     * it cannot take the first client's gauges away with it when it closes.
     */
    @Test
    void aSecondLiveClientIsRefusedEvenWhenTheRegistryAddsCommonTags(BatonClient a, BatonClient b) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().commonTags("application", "billing");
        BatonMetrics.of(a).bindTo(registry);
        BatonMetrics second = BatonMetrics.of(b);
        try {
            assertThatThrownBy(() -> second.bindTo(registry)).as("a second client with the same tags")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already bound");
        } finally {
            second.close();
        }
        assertThat(registry.find("baton.client.healthy").gauge()).as("the first client's gauges stay").isNotNull();
        assertThat(gauge(registry, "baton.client.healthy")).isEqualTo(1);
    }
}

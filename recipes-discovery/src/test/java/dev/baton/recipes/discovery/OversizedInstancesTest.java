package dev.baton.recipes.discovery;

import static dev.baton.recipes.discovery.Fixtures.discovery;
import static dev.baton.recipes.discovery.Fixtures.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.ServerCapabilities;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A service registered by writers with a larger maxInstanceBytes than the reader's: the reader
 * sizes its multi-reads for instances of its own limit, and a batch of real instances can bring
 * back more than the client accepts in one packet (1 MiB by default), which makes the client drop
 * the connection. The query must still complete with every instance the reader can read, and a
 * later query must not drop the connection again.
 */
@EnsembleTest
class OversizedInstancesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Legal for a writer with a 1 MiB limit; three of them in one batch pass the 1 MiB packet limit. */
    private static final int LARGE = 400 * 1024;

    EmbeddedEnsemble ensemble;

    @Test
    void aQueryOverInstancesLargerThanTheReadersLimitCompletesAndDropsTheConnectionAtMostOnce(BatonClient registrant)
        throws Exception {
        List<ServiceInstance<Endpoint>> readable = new ArrayList<>();
        ServiceDiscovery<Endpoint> writer = ServiceDiscoveryBuilder.builder(Endpoint.class).client(registrant)
            .basePath("/oversized").maxInstanceBytes(1024 * 1024).build();
        writer.start();
        try (writer) {
            for (int i = 0; i < 10; i++) {
                String id = String.format("o%02d", i);
                if (i % 2 == 1) {
                    writer.registerService(ServiceInstance.<Endpoint>builder().name("orders").id(id).address("10.0.1.1").port(9000 + i)
                        .payload(new Endpoint("z1", "v1")).metadata("blob", "x".repeat(LARGE)).build());
                } else {
                    ServiceInstance<Endpoint> small = instance("orders", id, 8000 + i);
                    writer.registerService(small);
                    readable.add(small);
                }
            }
            List<ConnectionState> states = new CopyOnWriteArrayList<>();
            ExecutorService events = Executors.newSingleThreadExecutor();
            try (BatonClient client = TestClients.started(BatonClient.builder().connectString(ensemble.connectString()).eventExecutor(events));
                 ServiceDiscovery<Endpoint> reader = discovery(client, "/oversized")) {
                await().atMost(WAIT).until(() -> client.serverCapabilities().supports(ServerCapabilities.Feature.MULTI_READ));
                client.addConnectionStateListener((ConnectionStateListener) (c, state) -> states.add(state));

                Collection<ServiceInstance<Endpoint>> first = reader.queryForInstances("orders");
                heardOut(events);
                assertThat(first).as("the instances within the reader's limit").containsExactlyElementsOf(readable);
                assertThat(states.stream().filter(s -> s == ConnectionState.SUSPENDED).count())
                    .as("connection drops during the first query: %s", states).isLessThanOrEqualTo(1);

                await().atMost(WAIT).until(() -> client.health().healthy());
                states.clear();
                Collection<ServiceInstance<Endpoint>> second = reader.queryForInstances("orders");
                heardOut(events);
                assertThat(second).containsExactlyElementsOf(readable);
                assertThat(states).as("connection states during a later query").isEmpty();
            } finally {
                events.shutdown();
            }
        }
    }

    /**
     * Waits until the listener calls queued so far have run: a state change is queued on the
     * event executor before the operations it releases go on, so the query's own are in by now.
     */
    private static void heardOut(ExecutorService events) throws Exception {
        events.submit(() -> { }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
}

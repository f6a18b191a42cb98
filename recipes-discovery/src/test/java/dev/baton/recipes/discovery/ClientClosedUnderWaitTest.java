package dev.baton.recipes.discovery;

import static dev.baton.test.CloseUnderWait.endsWithClientClosed;
import static dev.baton.test.CloseUnderWait.endsWithClientClosedOnceParked;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CutOffClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A discovery call that waits (for required services, for a cache's first load) ends at once with
 * {@code ClientClosedException} when its client is closed, instead of waiting out its timeout: a
 * closed client never connects again, so nothing it waits for can come.
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    /** Far longer than {@code CloseUnderWait.PROMPTLY}: a wait that runs its course fails the test. */
    private static final Duration LONG = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;

    @Test
    void startWaitingForARequiredServiceEnds() throws Exception {
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        Set<String> seen = ConcurrentHashMap.newKeySet();
        client.addObserver(new BatonObserver() {
            @Override
            public void serviceInstancesSeen(String service, int count) {
                seen.add(service);
            }
        });
        ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class).client(client)
            .basePath("/closed-under-wait/deps").requireServices("never").dependencyTimeout(LONG).build();
        // waiting once the cache following "never" has loaded (and seen no instance): the wait for a change is next
        var closed = endsWithClientClosed(client, () -> seen.contains("never"), discovery::start);
        assertThat(closed).hasMessageContaining("/closed-under-wait/deps");
    }

    @Test
    void aCacheWaitingForItsFirstLoadEnds() throws Exception {
        try (CutOffClient cutOff = CutOffClient.start(ensemble)) {
            ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class).client(cutOff.client())
                .basePath("/closed-under-wait/cache").build();
            cutOff.assertStartsPromptly("discovery", discovery::start);
            ServiceCache<Endpoint> cache = discovery.serviceCacheBuilder().name("payments").build();
            cutOff.assertStartsPromptly("service cache", cache::start);
            // no connection: the first load waits for one, which a closed client never makes
            var closed = endsWithClientClosedOnceParked(cutOff.client(), () -> cache.awaitLoaded(LONG));
            assertThat(closed).hasMessageContaining("/closed-under-wait/cache/payments");
        }
    }
}

package dev.baton.recipes.discovery;

import static dev.baton.recipes.discovery.Fixtures.discovery;
import static dev.baton.recipes.discovery.Fixtures.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ServerCapabilities;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.FourLetterWords;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * queryForInstances reads a service's instances in one multi of reads per batch on a server
 * that has it (3.6.0+, learned at connect), and one read per instance where the server lacks it
 * (the client told to assume a 3.5 server): the same answer both ways. The requests are counted
 * at the server, from the session's own connection ({@code cons}'s {@code recved}).
 */
@EnsembleTest
class BatchedQueryTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int INSTANCES = 20;

    EmbeddedEnsemble ensemble;

    @Test
    void theInstancesComeInAFewMultiReadsOnAModernServerAndOneByOneOnAnOldOne(BatonClient registrant) throws Exception {
        List<ServiceInstance<Endpoint>> registered = new ArrayList<>();
        try (ServiceDiscovery<Endpoint> writer = discovery(registrant, "/batched")) {
            for (int i = 0; i < INSTANCES; i++) {
                ServiceInstance<Endpoint> instance = instance("orders", String.format("o%02d", i), 8000 + i);
                writer.registerService(instance);
                registered.add(instance);
            }
            // a node that is not an instance is skipped, both ways
            registrant.create().forPath("/batched/orders/zz-garbage", "not json".getBytes(StandardCharsets.UTF_8));

            try (BatonClient modern = TestClients.started(BatonClient.builder().connectString(ensemble.connectString()));
                 BatonClient old = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
                     .assumeServerCapabilities(ServerCapabilities.ofVersion("3.5.10")));
                 ServiceDiscovery<Endpoint> fast = discovery(modern, "/batched");
                 ServiceDiscovery<Endpoint> plain = discovery(old, "/batched")) {
                await().atMost(WAIT).until(() -> modern.serverCapabilities().supports(ServerCapabilities.Feature.MULTI_READ));

                long before = received(modern);
                Collection<ServiceInstance<Endpoint>> batched = fast.queryForInstances("orders");
                long batchedRequests = received(modern) - before;

                before = received(old);
                Collection<ServiceInstance<Endpoint>> oneByOne = plain.queryForInstances("orders");
                long oneByOneRequests = received(old) - before;

                assertThat(batched).containsExactlyElementsOf(registered);
                assertThat(oneByOne).containsExactlyElementsOf(registered);
                // 21 nodes at 7 per multi (64 KiB instances): the listing and 3 multis; a ping may slip in
                assertThat(batchedRequests).as("requests with multi-read").isBetween(4L, 5L);
                assertThat(oneByOneRequests).as("requests without multi-read: the listing and a read per node")
                    .isGreaterThanOrEqualTo(INSTANCES + 2);
            }
        }
    }

    /** What the server has received on the client's connection so far. */
    private long received(BatonClient client) throws Exception {
        String cons = FourLetterWords.send(ensemble.clientPort(1), "cons", Duration.ofSeconds(5));
        Matcher m = Pattern.compile("recved=(\\d+),[^\\n]*sid=0x" + Long.toHexString(client.sessionId()) + "[,)]").matcher(cons);
        assertThat(m.find()).as("the server lists session 0x%s in: %s", Long.toHexString(client.sessionId()), cons).isTrue();
        return Long.parseLong(m.group(1));
    }
}

package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.ServerCapabilities.Feature;
import dev.baton.framework.internal.ServerProbe;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/**
 * What a client learns of its server at connect time, against the embedded 3.9.5 server: its
 * version from {@code srvr}, every feature of the release, whether TTL nodes are on (the server's
 * {@code zookeeper.extendedTypesEnabled}, which this class switches off around one test: the
 * in-process server reads it JVM-wide on every TTL create), and that the probes leave nothing.
 */
@EnsembleTest
class ServerCapabilitiesLearnedTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String TTL_SETTING = "zookeeper.extendedTypesEnabled";

    EmbeddedEnsemble ensemble;

    @Test
    void aClientLearnsItsServersVersionAndFeaturesAfterConnecting(BatonClient client) throws Exception {
        ServerCapabilities learned = await().atMost(WAIT).until(client::serverCapabilities,
            c -> c.version().isPresent() && c.supports(Feature.TTL_NODES));

        assertThat(learned.version()).contains(org.apache.zookeeper.Version.getVersion().replaceAll("[-+ ,].*", ""));
        assertThat(learned.supported()).containsExactlyInAnyOrder(Feature.values());
        assertThat(learned.lacking()).isEmpty();
        assertThat(learned.sendsChildEventsToRecursiveWatchers()).isFalse();
        assertThat(client.getChildren().forPath("/")).as("probes create nothing").noneMatch(n -> n.startsWith("baton-probe"));
    }

    @Test
    void theProbesAloneFindTheSameFeaturesAndLeaveNothing(BatonClient client) throws Exception {
        ServerCapabilities probed = ServerProbe.probeFeatures(client.zookeeper()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(probed.version()).isEmpty();
        assertThat(probed.supported()).containsExactlyInAnyOrder(Feature.values());
        assertThat(client.getChildren().forPath("/")).noneMatch(n -> n.startsWith("baton-probe"));
        assertThat(client.zookeeper().getEphemerals("/")).isEmpty();
    }

    @Test
    void withTtlNodesOffTheClientKnowsAndATtlCreateNamesTheSetting() throws Exception {
        String before = System.getProperty(TTL_SETTING);
        System.setProperty(TTL_SETTING, "false");
        try (BatonClient client = TestClients.started(BatonClient.builder().connectString(ensemble.connectString()))) {
            ServerCapabilities learned = await().atMost(WAIT).until(client::serverCapabilities, c -> c.lacks(Feature.TTL_NODES));
            assertThat(learned.supports(Feature.PERSISTENT_RECURSIVE_WATCHES)).isTrue();

            assertThatThrownBy(() -> client.create().withMode(CreateMode.PERSISTENT_WITH_TTL).withTtl(Duration.ofMinutes(1))
                .creatingParentsIfNeeded().forPath("/ttl-off/a"))
                .isInstanceOf(UnsupportedByServerException.class)
                .hasMessage("create /ttl-off/a: ZooKeeper " + learned.version().orElseThrow() + " refuses TTL nodes; they need "
                    + "ZooKeeper 3.5.3 or later, started with -Dzookeeper.extendedTypesEnabled=true");
            assertThatThrownBy(() -> client.create().withMode(CreateMode.PERSISTENT_WITH_TTL).withTtl(Duration.ofMinutes(1))
                .forPathAsync("/ttl-off-async").get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .hasCauseInstanceOf(UnsupportedByServerException.class);
            assertThat(client.checkExists().forPath("/ttl-off/a")).isNull();
        } finally {
            if (before == null) {
                System.clearProperty(TTL_SETTING);
            } else {
                System.setProperty(TTL_SETTING, before);
            }
        }
    }

    @Test
    void assumedCapabilitiesAreNotLearned() throws Exception {
        ServerCapabilities oldest = ServerCapabilities.ofVersion("3.5.10");
        try (BatonClient client = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
            .assumeServerCapabilities(oldest))) {
            client.create().forPath("/assumed"); // a round trip after the connect: learning would have started by now
            assertThat(client.serverCapabilities()).isEqualTo(oldest);
        }
    }
}

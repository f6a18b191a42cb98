package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.retry.RetryOneTime;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Guaranteed deletes against a real read-only server: a server of a three-server ensemble,
 * started with {@code readonlymode.enabled}, whose two peers are stopped. ZooKeeper 3.9 refuses
 * the quorum's sessions there ({@code ReadOnlyServer} in test-support explains; that staging
 * cannot serve here, because its writes still reach a writable server), and creates only local
 * sessions (hence {@code localSessions}). So a client that can be read-only gets there with a
 * new session, after the old one is lost — and that session gets NOTREADONLY for every write.
 */
class ReadOnlyServerDeletesTest {
    private static final String READ_ONLY_MODE = "readonlymode.enabled";
    private static final Duration WAIT = Duration.ofSeconds(40);
    private static String modeBefore;

    @BeforeAll
    static void serversMayServeReadOnly() {
        // read by each in-process server whenever it looks for a quorum
        modeBefore = System.setProperty(READ_ONLY_MODE, "true");
    }

    @AfterAll
    static void restoreMode() {
        if (modeBefore == null) {
            System.clearProperty(READ_ONLY_MODE);
        } else {
            System.setProperty(READ_ONLY_MODE, modeBefore);
        }
    }

    /**
     * A read-only server answers a delete with NOTREADONLY: "not here, not now". A guaranteed
     * delete pending while the client is read-only must wait for a writable server, not be given
     * up for good.
     */
    @Test
    void aGuaranteedDeleteOutlastsAReadOnlyServerAndIsDoneOnceTheQuorumIsBack() throws Exception {
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).localSessions(true).build()) {
            ensemble.start();
            int survivor = 3;
            List<Integer> peers = List.of(1, 2);
            String doomed = "/read-only/doomed";
            try (BatonClient client = TestClients.started(BatonClient.builder().connectString(ensemble.connectString(survivor))
                     .sessionTimeout(Duration.ofSeconds(2)).connectionTimeout(Duration.ofMillis(500))
                     .retryPolicy(new RetryOneTime(Duration.ofMillis(10))).canBeReadOnly(true))) {
                client.create().creatingParentsIfNeeded().forPath(doomed);
                peers.forEach(ensemble::stop);
                await().atMost(WAIT).until(() -> !client.connectionState().isConnected());
                assertThatThrownBy(() -> client.delete().guaranteed().forPath(doomed))
                    .as("no server to delete it now").isInstanceOf(ConnectionLossException.class);

                // the old session is refused read-only, so it is lost; the new one is read-only
                await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.READ_ONLY);
                assertThat(client.checkExists().forPath(doomed)).as("reads work read-only; the node is still there").isNotNull();

                peers.forEach(ensemble::restart);
                try (BatonClient observer = TestClients.started(ensemble.connectString(1), Duration.ofSeconds(10))) {
                    await().atMost(WAIT).pollInterval(Duration.ofMillis(100))
                        .untilAsserted(() -> assertThat(observer.checkExists().forPath(doomed))
                            .as("the guaranteed delete, done once a writable server is back").isNull());
                }
            }
        }
    }
}

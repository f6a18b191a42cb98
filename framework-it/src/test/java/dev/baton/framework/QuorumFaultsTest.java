package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.ServerRole;
import dev.baton.server.FourLetterWords;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Server faults in a three-server ensemble: the client keeps its session and its operations go on. */
@EnsembleTest(nodes = 3)
class QuorumFaultsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @AfterEach
    void everyServerBack() {
        for (int id = 1; id <= 3; id++) {
            if (ensemble.role(id) == ServerRole.STOPPED) {
                ensemble.restart(id);
            }
        }
    }

    @Test
    void stoppingTheServerAClientUsesMovesItToAnotherWithTheSameSession() throws Exception {
        List<ConnectionStateChange> changes = new CopyOnWriteArrayList<>();
        try (BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(15))) {
            client.addConnectionStateListener(recording(changes));
            long session = client.sessionId();
            int server = serverOf(session);
            ensemble.stop(server);
            await().atMost(WAIT).until(() -> changes.size() >= 2);
            assertThat(changes).extracting(ConnectionStateChange::state)
                .containsExactly(ConnectionState.SUSPENDED, ConnectionState.RECONNECTED);
            assertThat(changes).extracting(ConnectionStateChange::sessionId).containsOnly(session);
            assertThat(client.create().forPath("/moved-" + server)).isNotNull();
        }
    }

    @Test
    void killingTheLeaderServerNeverLosesTheSessionAndWritesResume() throws Exception {
        List<ConnectionStateChange> changes = new CopyOnWriteArrayList<>();
        try (BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(15))) {
            client.addConnectionStateListener(recording(changes));
            long session = client.sessionId();
            client.create().forPath("/before-failover");
            int leader = ensemble.leaderId();
            ensemble.stop(leader);
            // a write issued during the election is retried until the new leader commits it
            client.create().forPath("/during-failover");
            assertThat(ensemble.leaderId()).isNotEqualTo(leader);
            assertThat(client.checkExists().forPath("/before-failover")).isNotNull();
            assertThat(client.sessionId()).isEqualTo(session);
            assertThat(changes).extracting(ConnectionStateChange::state).doesNotContain(ConnectionState.LOST);
        }
    }

    @Test
    void aServerRestartedWithItsDataServesWhatWasWrittenMeanwhile() throws Exception {
        try (BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(15))) {
            int follower = ensemble.leaderId() % 3 + 1;
            ensemble.stop(follower);
            client.create().forPath("/written-while-" + follower + "-was-down");
            ensemble.restart(follower);
            try (BatonClient onlyThatServer = TestClients.started(ensemble.connectString(follower), Duration.ofSeconds(15))) {
                assertThat(onlyThatServer.checkExists().forPath("/written-while-" + follower + "-was-down")).isNotNull();
            }
        }
    }

    private static ConnectionStateListener recording(List<ConnectionStateChange> changes) {
        return new ConnectionStateListener() {
            @Override
            public void stateChanged(BatonClient c, ConnectionState s) {
            }

            @Override
            public void stateChanged(BatonClient c, ConnectionStateChange change) {
                changes.add(change);
            }
        };
    }

    /** The server holding the session's connection, from the servers' own connection lists. */
    private int serverOf(long session) throws Exception {
        String hex = "sid=0x" + Long.toHexString(session);
        for (int id = 1; id <= 3; id++) {
            if (FourLetterWords.send(ensemble.clientPort(id), "cons", Duration.ofSeconds(5)).contains(hex)) {
                return id;
            }
        }
        throw new AssertionError("no server lists session " + hex);
    }
}

package dev.baton.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.FourLetterWords;
import dev.baton.server.ServerMode;
import dev.baton.test.EnsembleTest;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The server the compatibility suite runs is the release it names, not the ZooKeeper this JVM
 * links: without this, a suite green on "3.8.6" could have run 3.9.5 all along.
 */
@EnsembleTest
class ServerVersionTest {
    EmbeddedEnsemble ensemble;

    @Test
    void theServerReportsTheRequestedRelease() throws IOException {
        String requested = System.getProperty("baton.test.serverVersion");
        assertThat(requested).as("the compat suite runs with baton.test.serverVersion set").isNotBlank();
        assertThat(ensemble.mode()).isEqualTo(ServerMode.CHILD_PROCESSES);
        String srvr = FourLetterWords.send(ensemble.clientPort(1), "srvr", Duration.ofSeconds(5));
        // "Zookeeper version: 3.8.6-<hash>, built on <date>"
        assertThat(srvr).as("srvr of the child server").contains("Zookeeper version: " + requested + "-");
        String linked = org.apache.zookeeper.Version.getFullVersion();
        if (!linked.startsWith(requested + "-")) {
            assertThat(srvr).as("the child must not run this JVM's ZooKeeper " + linked).doesNotContain(linked);
        }
    }
}

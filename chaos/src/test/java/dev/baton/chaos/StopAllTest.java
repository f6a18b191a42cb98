package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.test.ClientProcess;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The process chaos test's clean-up: since {@link ClientProcess#close()} throws for a worker that
 * crashed, stopping the workers one after the other must not end at that worker and leave the
 * others running (still taking the mutex on the shared ensemble, still writing to the store).
 */
class StopAllTest {
    @Test
    void aCrashedWorkerFailsTheStopButTheWorkersAfterItAreStoppedAllTheSame() throws Exception {
        assumeTrue(ClientProcess.supported(), "client processes need a Unix-like system");
        List<ClientProcess.Message> messages = new CopyOnWriteArrayList<>();
        ClientProcess crashed = ClientProcess.builder("crashed", StopAllChild.class).args("crash")
            .onMessage(messages::add).start();
        ClientProcess healthy = ClientProcess.builder("healthy", StopAllChild.class).args("stay")
            .onMessage(messages::add).start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> messages.stream().anyMatch(m -> m.kind().equals(ClientProcess.EXITED))
                && messages.stream().anyMatch(m -> m.kind().equals("ready")));

            assertThatThrownBy(() -> ProcessChaosTest.stopAll(List.of(crashed, healthy)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("client process crashed exited by itself with status 1")
                .hasMessageContaining("the worker could not start");
            assertThat(healthy.isAlive()).as("the worker after the crashed one is stopped too").isFalse();
        } finally {
            healthy.close();
        }
    }
}

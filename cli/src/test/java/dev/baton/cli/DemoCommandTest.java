package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** baton demo, the README's first command, as a user runs it: it must finish and exit 0. */
class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    void theDemoRunsEveryStepAndExitsZero() throws Exception {
        try (BatonProcess demo = BatonProcess.start(dir, Map.of(), "demo")) {
            assertThat(demo.exitCode(Duration.ofMinutes(2))).as("stderr: %s", demo.stderr()).isZero();
            assertThat(demo.stdout())
                .contains("holds the lock, fencing token")
                .as("the token's number explained once").containsOnlyOnce("a token is the zxid of the transaction")
                .as("a line while the servers elect").contains("waiting for the two others to elect a new one...")
                .as("the queue's split explained").contains("the split follows who is free")
                .contains("REJECTED")
                .contains("failover to")
                .contains("300 calls spread over the instances")
                .contains("drained in")
                .contains("released at")
                .contains("Done in");
        }
    }
}

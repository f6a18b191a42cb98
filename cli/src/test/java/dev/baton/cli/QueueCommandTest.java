package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton queue} as a child process against an embedded ensemble: what a shell script sees. */
@EnsembleTest
class QueueCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;
    @TempDir
    Path dir;

    private BatonProcess baton(String... args) throws Exception {
        return BatonProcess.start(dir, Map.of("BATON_CONNECT", ensemble.connectString()), args);
    }

    /** Runs baton to its end; the exit code, with stdout and stderr for the message. */
    private int run(BatonProcess process) throws Exception {
        try (process) {
            return process.exitCode(WAIT);
        }
    }

    @Test
    void itemsPutInOrderComeOutOneByOneOrSeveralInOneTake() throws Exception {
        BatonProcess put = baton("queue", "put", "jobs", "a", "b", "c", "d", "e");
        assertThat(run(put)).as("stderr: %s", put.stderr()).isZero();
        BatonProcess size = baton("queue", "size", "jobs");
        assertThat(run(size)).isZero();
        assertThat(size.stdout().trim()).isEqualTo("5");

        BatonProcess one = baton("queue", "take", "jobs");
        assertThat(run(one)).as("stderr: %s", one.stderr()).isZero();
        assertThat(one.stdout()).isEqualTo("a\n");

        BatonProcess three = baton("queue", "take", "jobs", "--max", "3");
        assertThat(run(three)).as("stderr: %s", three.stderr()).isZero();
        assertThat(three.stdout()).as("up to 3 items, one per line, in order").isEqualTo("b\nc\nd\n");

        BatonProcess rest = baton("queue", "take", "jobs", "--max", "10", "--timeout", "5s");
        assertThat(run(rest)).isZero();
        assertThat(rest.stdout()).as("fewer than --max: what there is").isEqualTo("e\n");
    }

    @Test
    void anEmptyQueueWithATimeoutExitsOneAndABadMaxIsAUsageError() throws Exception {
        BatonProcess empty = baton("queue", "take", "nothing-here", "--max", "5", "--timeout", "300ms");
        assertThat(run(empty)).isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(empty.stderr()).contains("stayed empty");
        BatonProcess zero = baton("queue", "take", "nothing-here", "--max", "0");
        assertThat(run(zero)).isEqualTo(ExitCodes.USAGE);
        assertThat(zero.stderr()).contains("--max must be 1 to 1000, was 0");
    }
}

package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.test.EnsembleTest;
import org.junit.jupiter.api.Test;

/** {@code baton queue} as a child process against an embedded ensemble: what a shell script sees. */
@EnsembleTest
class QueueCommandTest extends AgainstEnsemble {
    @Test
    void itemsPutInOrderComeOutOneByOneOrSeveralInOneTake() throws Exception {
        BatonProcess put = start("queue", "put", "jobs", "a", "b", "c", "d", "e");
        assertThat(put.finish(WAIT)).as("stderr: %s", put.stderr()).isZero();
        BatonProcess size = start("queue", "size", "jobs");
        assertThat(size.finish(WAIT)).isZero();
        assertThat(size.stdout().trim()).isEqualTo("5");

        BatonProcess one = start("queue", "take", "jobs");
        assertThat(one.finish(WAIT)).as("stderr: %s", one.stderr()).isZero();
        assertThat(one.stdout()).isEqualTo("a\n");

        BatonProcess three = start("queue", "take", "jobs", "--max", "3");
        assertThat(three.finish(WAIT)).as("stderr: %s", three.stderr()).isZero();
        assertThat(three.stdout()).as("up to 3 items, one per line, in order").isEqualTo("b\nc\nd\n");

        BatonProcess rest = start("queue", "take", "jobs", "--max", "10", "--timeout", "5s");
        assertThat(rest.finish(WAIT)).isZero();
        assertThat(rest.stdout()).as("fewer than --max: what there is").isEqualTo("e\n");
    }

    @Test
    void anEmptyQueueWithATimeoutExitsOneAndABadMaxIsAUsageError() throws Exception {
        BatonProcess empty = start("queue", "take", "nothing-here", "--max", "5", "--timeout", "300ms");
        assertThat(empty.finish(WAIT)).isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(empty.stderr()).contains("stayed empty");
        BatonProcess zero = start("queue", "take", "nothing-here", "--max", "0");
        assertThat(zero.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(zero.stderr()).contains("--max must be 1 to 1000, was 0");
    }
}

package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.cli.internal.Signals;
import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The steps between a grant and the command: what a signal in between does. */
class HeldCommandTest {
    @TempDir
    Path dir;

    @Test
    void aSignalBetweenTheGrantAndTheCommandsStartIsNotLost() throws Exception {
        HoldOptions options = new HoldOptions();
        options.killGrace = Duration.ofMillis(500);
        Duration timeout = Duration.ofSeconds(10);
        BatonClient client = new FakeConnection(1, ConnectionState.CONNECTED, timeout).client();
        GraceCheck grace = GraceCheck.watch(client, options, timeout);
        SessionLease lease = new SessionLease(client, "/baton/locks/x", grace, timeout, options.killGrace);
        CompletableFuture<String> attempt = new CompletableFuture<>();
        attempt.complete("granted");
        assertThat(HeldCommand.await(attempt, grace)).isEqualTo("granted");

        Signals.deliver("TERM"); // what the JVM's handler does with a SIGTERM that comes now, before the command started

        AtomicBoolean released = new AtomicBoolean();
        HeldCommand.Held held = new HeldCommand.Held() {
            @Override
            public long token() {
                return 1;
            }

            @Override
            public void onLost(Runnable callback) {
            }

            @Override
            public Optional<String> lossReason() {
                return Optional.empty();
            }

            @Override
            public void release() {
                released.set(true);
            }
        };
        Path ran = dir.resolve("ran");
        StringWriter err = new StringWriter();
        assertThatThrownBy(() -> HeldCommand.run(held, options, grace, lease, List.of("touch", ran.toString()), Map.of(), "lock x",
            new PrintWriter(err)))
            .isInstanceOfSatisfying(CliExit.class, exit -> assertThat(exit.code()).as("128 + SIGTERM").isEqualTo(143));
        assertThat(ran).as("the command was not started after the SIGTERM").doesNotExist();
        assertThat(released).as("the lock was given back").isTrue();
    }

    @Test
    void aSignalAfterTheNodeIsSentButBeforeTheWaitBeginsGivesThePlaceUp() throws Exception {
        Duration timeout = Duration.ofSeconds(10);
        BatonClient client = new FakeConnection(1, ConnectionState.CONNECTED, timeout).client();
        HoldOptions options = new HoldOptions();
        options.killGrace = Duration.ofMillis(500);
        GraceCheck grace = GraceCheck.watch(client, options, timeout);
        HeldCommand.keepSignals();                  // what the commands do just before they start an attempt
        CompletableFuture<String> attempt = new CompletableFuture<>();   // its node is in line, not granted
        Signals.deliver("INT");                     // Ctrl-C before await took over: kept, not lost, JVM not ended

        assertThatThrownBy(() -> HeldCommand.await(attempt, grace))
            .isInstanceOfSatisfying(CliExit.class, exit -> assertThat(exit.code()).as("128 + SIGINT").isEqualTo(130))
            .hasMessageContaining("interrupted (SIGINT) while waiting; gave up my place in line");
        assertThat(attempt).as("the attempt was cancelled, so its node is removed").isCancelled();
        assertThat(Signals.takeKept()).as("the signal was used once").isEmpty();
    }
}

package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --kill-grace} is held to the session timeout the servers grant, not the one asked for:
 * servers whose maximum is 3 s grant 3 s to a client asking 30 s, and then a 2 s grace would let
 * the command run on after the session could expire and someone else hold.
 */
class KillGraceTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration SHORT_MAX = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    /** One server granting session timeouts of 1 s to {@code max}, on {@code port} (0: a free one). */
    private static EmbeddedEnsemble server(int port, Duration max) {
        EmbeddedEnsemble.Builder builder = EmbeddedEnsemble.builder().sessionTimeoutBounds(Duration.ofSeconds(1), max);
        if (port > 0) {
            builder.clientPort(port);
        }
        EmbeddedEnsemble ensemble = builder.build();
        ensemble.start();
        return ensemble;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        }
    }

    @Test
    void aGraceTooLongForTheGrantedTimeoutIsRefusedBeforeTheCommandRuns() throws Exception {
        Path ran = dir.resolve("ran");
        try (EmbeddedEnsemble ensemble = server(0, SHORT_MAX)) {
            BatonProcess lock = BatonProcess.start(dir, Map.of("BATON_CONNECT", ensemble.connectString()),
                "lock", "granted", "--session-timeout", "30s", "--kill-grace", "2s", "--", "touch", ran.toString());
            assertThat(lock.finish(WAIT)).as("stderr: %s", lock.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(lock.stderr().trim())
                .startsWith("baton: --kill-grace 2s is too long for the session timeout the servers granted (3s, of 30s asked)")
                .doesNotContain("\n");
            assertThat(ran).as("the command did not run").doesNotExist();
        }
    }

    @Test
    void aNewSessionGrantedLessThanTheGraceNeedsEndsTheWaitWithTheSameRefusal() throws Exception {
        Path ran = dir.resolve("ran");
        int port = freePort();
        EmbeddedEnsemble generous = server(port, Duration.ofSeconds(60));
        // the holder keeps the lock until its server is gone, so the waiter waits throughout
        try (BatonClient holder = BatonClient.builder().connectString(generous.connectString()).build()) {
            holder.start();
            assertThat(holder.blockUntilConnected(WAIT)).isTrue();
            new InterProcessMutex(holder, "/baton/locks/renewed").acquire();
            // 5 s granted: a 1 s grace fits (1 s + 500 ms <= 5 s / 3)
            BatonProcess waiter = BatonProcess.start(dir, Map.of("BATON_CONNECT", generous.connectString()),
                "lock", "renewed", "--session-timeout", "5s", "--kill-grace", "1s", "--", "touch", ran.toString());
            await().atMost(WAIT).until(() -> {
                try {
                    return holder.getChildren().forPath("/baton/locks/renewed").size() == 2;
                } catch (NoNodeException e) {
                    return false;
                }
            });
            // another server on the same port, which knows nothing of the waiter's session and grants at most 3 s; it
            // has seen fewer transactions than the waiter, so it refuses the old session until the waiter's client gives
            // it up (a session timeout after the disconnect) and starts a new one
            generous.close();
            try (waiter; EmbeddedEnsemble stingy = server(port, SHORT_MAX)) {
                assertThat(waiter.exitCode(WAIT)).as("stderr: %s", waiter.stderr()).isEqualTo(ExitCodes.USAGE);
                assertThat(waiter.stderr()).contains("--kill-grace 1s is too long for the session timeout the servers granted (3s, of 5s asked)");
                assertThat(ran).as("the command did not run").doesNotExist();
            }
        }
    }
}

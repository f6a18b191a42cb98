package dev.baton.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.server.ChildJvm;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child-process server whose parent's pipe ends: how it ends, and what an operator reading its
 * exit code or its log learns. The parent here is this test JVM, which closes its end of the pipe
 * as a JVM killed with SIGKILL would (the kernel closes it then).
 */
class ExitWithParentTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aServerWhoseParentIsGoneHaltsWithItsOwnExitCodeAndSaysWhy(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("server.log");
        try (PortReservation port = PortReservation.anyFree()) {
            ChildJvm.Builder builder = ChildJvm.builder(ExitWithParent.class.getName())
                .args(List.of("org.apache.zookeeper.server.ZooKeeperServerMain", Integer.toString(port.port()),
                    Files.createDirectories(dir.resolve("data")).toString()))
                .errorToOutput()
                .output(ProcessBuilder.Redirect.appendTo(log.toFile()));
            ServerJvmSettings.PROPERTIES.forEach(builder::systemProperty);
            ChildJvm server = builder.start();
            try {
                await().atMost(WAIT).until(() -> listening(port.port()) || !server.isAlive());
                assertThat(server.isAlive()).as("a real ZooKeeper server under ExitWithParent; its log: %s", Files.readString(log))
                    .isTrue();

                server.process().getOutputStream().close();  // the parent's end of the pipe, gone

                assertThat(server.process().waitFor(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("the server ended within %s of its parent's pipe", WAIT).isTrue();
                int code = server.process().exitValue();
                assertThat(code).as("exit code of a server whose parent is gone; 143 is what SIGTERM gives").isEqualTo(66)
                    .isEqualTo(ExitWithParent.PARENT_GONE);
                assertThat(Files.readString(log)).as("the server's log")
                    .containsPattern("baton: standard input ended: the JVM that started this server \\(pid \\d+\\) is gone; "
                        + "halting with exit code 66");
            } finally {
                server.kill();
            }
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }
}

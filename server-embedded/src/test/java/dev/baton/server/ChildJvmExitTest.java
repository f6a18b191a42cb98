package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Children still running when their parent JVM exits normally are stopped as on Ctrl-C (SIGTERM:
 * their shutdown hooks run), not killed: a child-process server closes its files and sockets
 * when {@code baton server --tls} is stopped.
 */
class ChildJvmExitTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** A child that writes its marker file from a shutdown hook, and otherwise waits for ever. */
    public static final class HookedChild {
        private HookedChild() {
        }

        public static void main(String[] args) throws Exception {
            Path marker = Path.of(args[0]);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Files.writeString(marker, "stopped in order");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
            System.out.println("ready");
            System.out.flush();
            // Nothing ever counts this down: only a signal ends this child. Not a read of standard
            // input: that reaches its end when the parent exits, so the child would end itself and
            // run its hook even if the parent's reaper sent nothing.
            new CountDownLatch(1).await();
        }
    }

    /** A parent that starts a {@link HookedChild}, waits until it is ready, and exits without stopping it. */
    public static final class ExitingParent {
        private ExitingParent() {
        }

        public static void main(String[] args) throws Exception {
            ChildJvm child = ChildJvm.builder(HookedChild.class.getName()).args(List.of(args[0])).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(child.process().getInputStream(), StandardCharsets.UTF_8));
            if (!"ready".equals(out.readLine())) {
                System.exit(3);
            }
            System.out.println("child " + child.process().pid());
            System.out.flush();
            System.exit(0); // the child is left to the exit's reaper
        }
    }

    @Test
    void aChildLeftRunningWhenItsParentExitsIsStoppedWithSigtermSoItsShutdownHooksRun(@TempDir Path folder) throws Exception {
        Path marker = folder.resolve("marker");
        ChildJvm parent = ChildJvm.builder(ExitingParent.class.getName()).args(List.of(marker.toString())).errorToOutput().start();
        BufferedReader out = new BufferedReader(new InputStreamReader(parent.process().getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).as("the parent's report of its child").startsWith("child ");
        long pid = Long.parseLong(line.substring("child ".length()));
        try {
            assertThat(parent.process().waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the parent exits").isTrue();
            assertThat(parent.process().exitValue()).isZero();
            await().atMost(WAIT).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
            assertThat(marker).as("the child's shutdown hook ran: it was sent SIGTERM, not SIGKILL").exists();
            assertThat(Files.readString(marker)).isEqualTo("stopped in order");
        } finally {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly); // this test's grandchild, if it outlived the test
        }
    }
}

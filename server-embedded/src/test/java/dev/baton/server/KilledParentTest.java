package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a JVM running an ensemble leaves behind when it is killed with SIGKILL (a killed build, an
 * IDE's stop button, {@code kill -9} of {@code baton server}): no shutdown hook runs, so neither
 * its servers nor its temporary folder can be cleaned up by it.
 */
class KilledParentTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The parent: a child-process ensemble of two servers, reported on standard output, kept until killed. */
    public static final class ParentOfServers {
        private ParentOfServers() {
        }

        public static void main(String[] args) throws Exception {
            EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(Integer.parseInt(args[0]))
                .mode(ServerMode.CHILD_PROCESSES).build();
            ensemble.start();
            StringBuilder pids = new StringBuilder();
            for (int id = 1; id <= ensemble.size(); id++) {
                pids.append(' ').append(ensemble.pid(id));
            }
            System.out.println("serving " + ensemble.dataDir() + pids);
            System.out.flush();
            // never closed: the test kills this JVM; end-of-file (the test JVM gone) ends it too
            while (System.in.read() >= 0) {
                // nothing is sent
            }
            Runtime.getRuntime().halt(1);
        }
    }

    @Test
    void serversOfAJvmKilledBySigkillExitAndTheNextEnsembleDeletesItsTemporaryFolder() throws Exception {
        ChildJvm parent = ChildJvm.builder(ParentOfServers.class.getName()).args(List.of("2")).errorToOutput().start();
        String serving = firstLineStartingWith(parent, "serving ");
        String[] words = serving.split(" ");
        Path data = Path.of(words[1]);
        List<ProcessHandle> servers = new ArrayList<>();
        Arrays.stream(words, 2, words.length).map(Long::parseLong).map(ProcessHandle::of).forEach(p -> p.ifPresent(servers::add));
        assertThat(servers).as("server processes of %s", serving).hasSize(2);

        parent.kill();
        try {
            await().atMost(WAIT).until(() -> servers.stream().noneMatch(ProcessHandle::isAlive));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("server processes " + servers.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).toList()
                + " still run " + WAIT + " after their parent JVM was killed with SIGKILL", e);
        } finally {
            servers.forEach(ProcessHandle::destroyForcibly);  // this test's own grandchildren, if they outlived it
        }
        // the killed JVM could not delete its folder; the next temporary ensemble built on this machine
        // (in any JVM: test classes run side by side) finds its lock free and deletes it
        try (EmbeddedEnsemble next = EmbeddedEnsemble.builder().build()) {
            assertThat(data).as("the folder of the killed JVM's ensemble, once another ensemble is built").doesNotExist();
            assertThat(next.dataDir()).isDirectory();
        } finally {
            if (Files.exists(data)) {
                // leave the machine as it was even when the assertion failed
                try (var walk = Files.walk(data)) {
                    walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /** The first line of {@code child}'s output starting with {@code prefix}, within {@link #WAIT}. */
    private static String firstLineStartingWith(ChildJvm child, String prefix) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.process().getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Optional<String>> line = CompletableFuture.supplyAsync(() -> out.lines()
            .filter(l -> l.startsWith(prefix)).findFirst());
        try {
            return line.get(WAIT.toSeconds(), TimeUnit.SECONDS)
                .orElseThrow(() -> new AssertionError("the parent JVM ended without printing '" + prefix + "...'"));
        } catch (java.util.concurrent.TimeoutException e) {
            child.kill();
            throw new AssertionError("the parent JVM printed no '" + prefix + "...' within " + WAIT, e);
        }
    }
}

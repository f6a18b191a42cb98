package dev.baton.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.server.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data folder's lock against the sweep of abandoned temporary folders that every other JVM
 * building a temporary ensemble runs (test classes in parallel forks, several builds on a machine).
 */
class FolderLockTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration RACE_FOR = Duration.ofSeconds(5);

    /** Another JVM building ensembles: sweeps the folder given until its standard input ends. */
    public static final class Sweeper {
        private Sweeper() {
        }

        public static void main(String[] args) {
            Thread watch = new Thread(() -> {
                try {
                    while (System.in.read() >= 0) {
                        // nothing is sent
                    }
                } catch (java.io.IOException e) {
                    // the test JVM is gone all the same
                }
                Runtime.getRuntime().halt(0);
            });
            watch.setDaemon(true);
            watch.start();
            Path parent = Path.of(args[0]);
            System.out.println("sweeping " + parent);
            System.out.flush();
            while (true) {
                FolderLock.deleteAbandoned(parent, "baton-ensemble-");
            }
        }
    }

    @Test
    void aSweepInAnotherJvmNeverMakesANewTemporaryFolderLookTaken(@TempDir Path parent) throws Exception {
        ChildJvm sweeper = ChildJvm.builder(Sweeper.class.getName()).args(List.of(parent.toString())).errorToOutput().start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(sweeper.process().getInputStream(), StandardCharsets.UTF_8));
            String first = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    return null;
                }
            }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(first).as("the sweeping JVM's first line").startsWith("sweeping ");
            long end = System.nanoTime() + RACE_FOR.toNanos();
            int builds = 0;
            while (System.nanoTime() < end) {
                // what Layout.create does for a temporary ensemble, while the other JVM sweeps
                Path folder = Files.createTempDirectory(parent, "baton-ensemble-");
                FolderLock lock = FolderLock.tryTake(folder, true);
                assertThat(lock).as("the lock of the new folder %s (build %d): no ensemble runs on it, yet it was refused "
                    + "(a build fails with 'the new temporary folder ... is locked by another process')", folder, builds).isNotNull();
                lock.close();
                Layout.deleteRecursively(folder);
                builds++;
            }
            assertThat(builds).as("folders made and locked beside the sweep").isPositive();
        } finally {
            sweeper.kill();
        }
    }

    @Test
    void theSweepDeletesAnAbandonedTemporaryFolderAndLeavesAnEmptyLockFileAlone(@TempDir Path parent) throws Exception {
        Path abandoned = Files.createDirectories(parent.resolve("baton-ensemble-1"));
        Files.writeString(abandoned.resolve(FolderLock.FILE), "4242 temporary\n");
        Path beingMade = Files.createDirectories(parent.resolve("baton-ensemble-2"));
        Files.createFile(beingMade.resolve(FolderLock.FILE));
        Path chosen = Files.createDirectories(parent.resolve("baton-ensemble-3"));
        Files.writeString(chosen.resolve(FolderLock.FILE), "4242\n");

        assertThat(FolderLock.deleteAbandoned(parent, "baton-ensemble-")).isEqualTo(1);
        assertThat(abandoned).as("a temporary folder whose owner is gone").doesNotExist();
        assertThat(beingMade).as("a folder whose lock file its maker has not written yet").isDirectory();
        assertThat(chosen).as("a folder a user chose").isDirectory();
    }
}

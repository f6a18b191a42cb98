package dev.baton.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.server.ChildJvm;
import dev.baton.server.EmbeddedEnsemble;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
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

    /** Another process: tries to take the lock of the folder given, says "taken" or "refused", and exits. */
    public static final class TryTake {
        private TryTake() {
        }

        public static void main(String[] args) throws Exception {
            FolderLock lock = FolderLock.tryTake(Path.of(args[0]), false);
            System.out.println(lock == null ? "refused" : "taken");
            System.out.flush();
            if (lock != null) {
                lock.close();
            }
        }
    }

    /**
     * A second copy of {@link FolderLock}, as a second class loader in this JVM has (an
     * application server, a plugin, an IDE's test runner): its own set of held folders, but the
     * file locks of this one process.
     */
    private static final class OtherLoader implements AutoCloseable {
        private final URLClassLoader loader;
        private final Method tryTake;

        OtherLoader() throws Exception {
            URL classes = FolderLock.class.getProtectionDomain().getCodeSource().getLocation();
            loader = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader());
            Class<?> copy = Class.forName(FolderLock.class.getName(), true, loader);
            assertThat(copy).as("FolderLock as the other class loader has it").isNotSameAs(FolderLock.class);
            tryTake = copy.getDeclaredMethod("tryTake", Path.class, boolean.class);
            tryTake.setAccessible(true);
        }

        AutoCloseable take(Path folder, boolean temporary) throws Exception {
            return (AutoCloseable) tryTake.invoke(null, folder, temporary);
        }

        @Override
        public void close() throws Exception {
            loader.close();
        }
    }

    /** What another process gets when it tries to take {@code folder}'s lock: "taken" or "refused". */
    private static String anotherProcessTries(Path folder) throws Exception {
        ChildJvm child = ChildJvm.builder(TryTake.class.getName()).args(List.of(folder.toString())).errorToOutput().start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.process().getInputStream(), StandardCharsets.UTF_8));
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return String.join(" ", out.lines().toList());
                } catch (java.io.UncheckedIOException e) {
                    return "unreadable: " + e;
                }
            }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            child.kill();
        }
    }

    @Test
    void aFolderHeldByAnotherClassLoaderOfThisJvmIsRefusedAsInUseAndStaysHeld(@TempDir Path folder) throws Exception {
        try (OtherLoader other = new OtherLoader(); AutoCloseable held = other.take(folder, false)) {
            assertThat(held).as("the other class loader's lock of the free folder %s", folder).isNotNull();

            assertThatThrownBy(() -> EmbeddedEnsemble.builder().dataDir(folder).build().close())
                .as("a second ensemble on a folder this JVM already holds, through another class loader")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("dataDir " + folder + " is in use by another running ensemble");
            // refusing must not have dropped the holder's lock: file locks belong to the process, and
            // closing any channel to the file releases them
            assertThat(anotherProcessTries(folder)).as("another process taking the folder after the refusal").isEqualTo("refused");
        }
        assertThat(anotherProcessTries(folder)).as("another process once the holder closed").isEqualTo("taken");
    }

    @Test
    void theSweepLeavesATemporaryFolderOfAnotherClassLoaderHeld(@TempDir Path parent) throws Exception {
        Path running = Files.createDirectories(parent.resolve("baton-ensemble-running"));
        try (OtherLoader other = new OtherLoader(); AutoCloseable held = other.take(running, true)) {
            assertThat(held).isNotNull();

            assertThat(FolderLock.deleteAbandoned(parent, "baton-ensemble-")).as("folders deleted by the sweep").isZero();
            assertThat(running).as("the folder of an ensemble running in this JVM").isDirectory();
            // a sweep in any other process deletes a temporary folder whose lock it finds free
            assertThat(anotherProcessTries(running)).as("another process taking the running ensemble's folder after the sweep")
                .isEqualTo("refused");
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

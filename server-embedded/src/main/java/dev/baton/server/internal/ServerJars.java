package dev.baton.server.internal;

import dev.baton.server.MissingServerJarsException;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds the class path of one ZooKeeper server version: a folder named {@code zookeeper-<version>}
 * holding {@code zookeeper-<version>.jar} and the jars that release runs on (jute, Netty, SLF4J,
 * logback, metrics, as Maven resolved them for that version), so that a child-process server
 * runs that release's own code and none of this JVM's.
 *
 * <p>Maven fills such folders with {@code dependency:copy-dependencies} (the modules under
 * {@code compat/servers/} do, one per version); the folders holding them are named by the
 * system property {@value #ROOTS_PROPERTY}, read when the ensemble is built, never earlier.
 */
public final class ServerJars {
    /** The system property naming the folders, separated like a class path, that hold {@code zookeeper-<version>} folders. */
    public static final String ROOTS_PROPERTY = "baton.zookeeper.jars";

    private ServerJars() {
    }

    /**
     * The jars of {@code version}, from the first folder named by {@value #ROOTS_PROPERTY} that
     * holds a {@code zookeeper-<version>} folder with its main jar.
     *
     * @param version a ZooKeeper version such as {@code 3.8.6}
     * @return the jars, sorted by name
     * @throws MissingServerJarsException if no folder holds them
     */
    public static List<Path> find(String version) {
        String roots = System.getProperty(ROOTS_PROPERTY, "");
        List<Path> searched = new ArrayList<>();
        for (String root : roots.split(File.pathSeparator)) {
            if (!root.isBlank()) {
                searched.add(Path.of(root.trim()).resolve("zookeeper-" + version).toAbsolutePath());
            }
        }
        for (Path folder : searched) {
            if (holdsServer(folder, version)) {
                return jarsIn(folder);
            }
        }
        String where = searched.isEmpty()
            ? "no folder to look in: the system property " + ROOTS_PROPERTY + " is not set"
            : "looked in " + searched.stream().map(Path::toString).collect(Collectors.joining(", "))
                + " (folders from the system property " + ROOTS_PROPERTY + "=" + roots + ")";
        throw new MissingServerJarsException(version, searched, "no jars for ZooKeeper server " + version
            + ": zookeeper-" + version + ".jar not found; " + where
            + ". Resolve them with Maven (a compat/servers/zookeeper-" + version
            + " module, see docs/compatibility.md) or pass the folder to serverVersion(version, folder)");
    }

    /**
     * The jars of {@code version} in {@code folder} itself.
     *
     * @param version a ZooKeeper version such as {@code 3.8.6}
     * @param folder the folder holding {@code zookeeper-<version>.jar} and its dependencies
     * @return the jars, sorted by name
     * @throws MissingServerJarsException if the folder does not hold {@code zookeeper-<version>.jar}
     */
    public static List<Path> in(String version, Path folder) {
        Path absolute = folder.toAbsolutePath();
        if (!holdsServer(absolute, version)) {
            throw new MissingServerJarsException(version, List.of(absolute), "no jars for ZooKeeper server " + version
                + ": zookeeper-" + version + ".jar not found in " + absolute
                + (Files.isDirectory(absolute) ? "" : " (no such folder)"));
        }
        return jarsIn(absolute);
    }

    private static boolean holdsServer(Path folder, String version) {
        return Files.isRegularFile(folder.resolve("zookeeper-" + version + ".jar"));
    }

    private static List<Path> jarsIn(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the server jars in " + folder, e);
        }
    }
}

package dev.baton.server;

import java.nio.file.Path;
import java.util.List;

/**
 * An ensemble was asked for a ZooKeeper server version ({@link EmbeddedEnsemble.Builder#serverVersion(String)})
 * whose jars are not where it looked. The message names the version, every folder searched and
 * how to resolve the jars; {@link #version()} and {@link #searched()} give the same to code.
 */
public final class MissingServerJarsException extends EnsembleException {
    private static final long serialVersionUID = 1L;

    /** The requested version. */
    private final String version;
    /** The folders searched, in order. */
    private final transient List<Path> searched;

    /**
     * The jars of {@code version} are in none of {@code searched}.
     *
     * @param version the ZooKeeper version asked for, such as {@code 3.8.6}
     * @param searched the folders looked in, in order (may be empty when no folder was named)
     * @param message the full explanation, naming the version, the folders and the remedy
     */
    public MissingServerJarsException(String version, List<Path> searched, String message) {
        super(message);
        this.version = version;
        this.searched = List.copyOf(searched);
    }

    /** {@return the ZooKeeper version whose jars were not found} */
    public String version() {
        return version;
    }

    /** {@return the folders that were searched for {@code zookeeper-<version>.jar}, in order} */
    public List<Path> searched() {
        return searched == null ? List.of() : searched;
    }
}

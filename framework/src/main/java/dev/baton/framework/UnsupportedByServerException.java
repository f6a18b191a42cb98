package dev.baton.framework;

import java.util.Objects;
import org.apache.zookeeper.KeeperException;

/**
 * The server refused an operation as "unimplemented": it lacks a feature the operation needs, or
 * has it switched off. The message names the server's version (when the client learned it, see
 * {@link ServerCapabilities}) and what the server needs, for example
 * {@code "create /jobs/a: ZooKeeper 3.9.5 refuses TTL nodes; they need ZooKeeper 3.5.3 or later,
 * started with -Dzookeeper.extendedTypesEnabled=true"}.
 *
 * <p>It is a {@link ZooKeeperException} with code {@code UNIMPLEMENTED}, so code that switches on
 * the code keeps working.
 */
public class UnsupportedByServerException extends ZooKeeperException {
    private static final long serialVersionUID = 1L;

    /** The feature the server lacks. */
    private final ServerCapabilities.Feature feature;
    /** The server's version as the client learned it, or null. */
    private final String serverVersion;
    /** The whole message: operation, path, server and what it needs. */
    private final String message;

    /**
     * The server refused {@code operation} on {@code path}, which needs {@code feature}.
     *
     * @param feature what the operation needs
     * @param server what the client knows of the server (its version, if learned)
     * @param operation the operation refused ({@code "create"}, {@code "addWatch"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause the server's refusal, or null
     */
    public UnsupportedByServerException(ServerCapabilities.Feature feature, ServerCapabilities server, String operation,
                                        String path, Throwable cause) {
        super(KeeperException.Code.UNIMPLEMENTED, operation, path, cause);
        this.feature = Objects.requireNonNull(feature, "feature");
        this.serverVersion = server.version().orElse(null);
        this.message = (operation == null ? "" : operation + (path == null ? "" : " " + path) + ": ")
            + server.serverName() + " refuses " + words(feature) + "; " + pronoun(feature) + " " + feature.requirement();
    }

    @Override
    public String getMessage() {
        return message;
    }

    /** {@return the feature the server lacks} */
    public ServerCapabilities.Feature feature() {
        return feature;
    }

    /** {@return the server's version as the client learned it ({@code "3.9.5"}), or null if unknown} */
    public String serverVersion() {
        return serverVersion;
    }

    private static String words(ServerCapabilities.Feature feature) {
        return switch (feature) {
            case CREATE2 -> "create2 (a create that answers with the node's stat)";
            case TTL_NODES -> "TTL nodes";
            case PERSISTENT_RECURSIVE_WATCHES -> "persistent watches (addWatch)";
            case MULTI_READ -> "a multi of reads";
            case GET_EPHEMERALS -> "getEphemerals";
        };
    }

    private static String pronoun(ServerCapabilities.Feature feature) {
        return feature == ServerCapabilities.Feature.TTL_NODES || feature == ServerCapabilities.Feature.PERSISTENT_RECURSIVE_WATCHES
            ? "they need" : "it needs";
    }
}

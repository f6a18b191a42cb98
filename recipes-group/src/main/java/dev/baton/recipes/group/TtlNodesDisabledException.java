package dev.baton.recipes.group;

import dev.baton.framework.BatonException;

/**
 * The servers refused to create a TTL node: TTL nodes are off on them. They are turned on by
 * starting every server with the system property {@code zookeeper.extendedTypesEnabled=true}
 * (Baton's embedded ensemble does).
 */
public class TtlNodesDisabledException extends BatonException {
    private static final long serialVersionUID = 1L;

    /** The server setting that turns TTL nodes on. */
    public static final String SERVER_SETTING = "zookeeper.extendedTypesEnabled=true";

    /**
     * The servers refused a TTL create.
     *
     * @param path the TTL node that could not be created
     * @param cause the servers' refusal
     */
    public TtlNodesDisabledException(String path, Throwable cause) {
        super("create " + path + " as a TTL node: the servers refuse TTL nodes (they answered 'unimplemented'); "
            + "start every ZooKeeper server with -D" + SERVER_SETTING, cause);
    }
}

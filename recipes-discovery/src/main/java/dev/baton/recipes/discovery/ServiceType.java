package dev.baton.recipes.discovery;

import org.apache.zookeeper.CreateMode;

/**
 * How an instance's node lives in ZooKeeper; the names and meanings are Curator's.
 */
public enum ServiceType {
    /** An ephemeral node: it goes when the registrant's session ends, and comes back when the registrant re-registers. The default. */
    DYNAMIC,
    /** A persistent node for an instance that is not a live process (a fixed endpoint); removed by close() like DYNAMIC. */
    STATIC,
    /** A persistent node that outlives the registrant: close() leaves it, only unregisterService removes it. */
    PERMANENT,
    /** An ephemeral sequential node: the node's name is the id followed by ZooKeeper's 10-digit counter. */
    DYNAMIC_SEQUENTIAL;

    /** The ZooKeeper mode of an instance node of this type. */
    CreateMode createMode() {
        return switch (this) {
            case DYNAMIC -> CreateMode.EPHEMERAL;
            case DYNAMIC_SEQUENTIAL -> CreateMode.EPHEMERAL_SEQUENTIAL;
            case STATIC, PERMANENT -> CreateMode.PERSISTENT;
        };
    }

    /** {@return whether the node ends with the registrant's session} */
    public boolean isEphemeral() {
        return switch (this) {
            case DYNAMIC, DYNAMIC_SEQUENTIAL -> true;
            case STATIC, PERMANENT -> false;
        };
    }
}

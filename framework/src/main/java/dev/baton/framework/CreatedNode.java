package dev.baton.framework;

import org.apache.zookeeper.data.Stat;

/**
 * A node the client created (or found it had created, after a lost reply).
 *
 * @param path the node's path without the namespace, sequence suffix and protection prefix included
 * @param stat the node's stat; {@code stat.getCzxid()} is its creation zxid, the fencing token of
 *     recipes built on it
 */
public record CreatedNode(String path, Stat stat) {
    /** {@return the last segment of {@link #path()}} */
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}

package dev.baton.framework.cache;

import org.apache.zookeeper.data.Stat;

/**
 * A cached node.
 *
 * @param path the node's path (without the client's namespace)
 * @param data its data (empty when the cache keeps no data)
 * @param stat its stat when it was read
 */
public record ChildData(String path, byte[] data, Stat stat) {
    /** The node's name (last path segment). */
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}

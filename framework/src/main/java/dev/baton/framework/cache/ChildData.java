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

    /** Curator's name for {@link #path()}. */
    public String getPath() {
        return path;
    }

    /** Curator's name for {@link #data()}. */
    public byte[] getData() {
        return data;
    }

    /** Curator's name for {@link #stat()}. */
    public Stat getStat() {
        return stat;
    }
}

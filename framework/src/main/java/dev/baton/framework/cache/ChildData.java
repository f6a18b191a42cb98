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
    /** {@return the node's name (last path segment)} */
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /**
     * Curator's name for {@link #path()}.
     *
     * @return what {@link #path()} returns
     */
    public String getPath() {
        return path;
    }

    /**
     * Curator's name for {@link #data()}.
     *
     * @return what {@link #data()} returns
     */
    public byte[] getData() {
        return data;
    }

    /**
     * Curator's name for {@link #stat()}.
     *
     * @return what {@link #stat()} returns
     */
    public Stat getStat() {
        return stat;
    }
}

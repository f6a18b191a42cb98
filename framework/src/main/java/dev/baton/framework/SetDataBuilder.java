package dev.baton.framework;

import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.data.Stat;

/** Replaces a node's data: {@code client.setData().withVersion(3).forPath("/a", data)}. */
public interface SetDataBuilder {
    /**
     * Only if the node is at this version (otherwise {@link BadVersionException}); -1 for any.
     *
     * @param version the version the node must have, or -1 for any
     * @return this builder
     */
    SetDataBuilder withVersion(int version);

    /**
     * If a retried setData with a version finds the node one version ahead with exactly this
     * data, counts that as this call's success rather than a bad version.
     *
     * @return this builder
     */
    SetDataBuilder idempotent();

    /**
     * Sets the data; returns the node's new stat.
     *
     * @param path the node's path
     * @param data the new data
     * @return the node's new stat
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    Stat forPath(String path, byte[] data) throws InterruptedException;

    /**
     * {@link #forPath(String, byte[])} without blocking a thread.
     *
     * @param path the node's path
     * @param data the new data
     * @return the node's new stat, or the failure
     */
    CompletableFuture<Stat> forPathAsync(String path, byte[] data);
}

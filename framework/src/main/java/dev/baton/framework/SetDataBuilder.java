package dev.baton.framework;

import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.data.Stat;

/** Replaces a node's data: {@code client.setData().withVersion(3).forPath("/a", data)}. */
public interface SetDataBuilder {
    /** Only if the node is at this version (otherwise {@link BadVersionException}); -1 for any. */
    SetDataBuilder withVersion(int version);

    /**
     * If a retried setData with a version finds the node one version ahead with exactly this
     * data, counts that as this call's success rather than a bad version.
     */
    SetDataBuilder idempotent();

    /** Sets the data; returns the node's new stat. */
    Stat forPath(String path, byte[] data) throws InterruptedException;

    CompletableFuture<Stat> forPathAsync(String path, byte[] data);
}

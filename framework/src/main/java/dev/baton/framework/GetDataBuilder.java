package dev.baton.framework;

import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Watcher;

/** Reads a node's data: {@code client.getData().usingWatcher(w).forPath("/a")}. */
public interface GetDataBuilder {
    /**
     * Leaves a one-shot watch for the node's next change or deletion; {@code watcher} runs on the
     * client's event executor with the event's path without the namespace.
     *
     * @param watcher runs on the client's event executor at the node's next change or deletion
     * @return this builder
     */
    GetDataBuilder usingWatcher(Watcher watcher);

    /**
     * Reads the data of the node at {@code path}.
     *
     * @param path the node's path
     * @return the node's data
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    byte[] forPath(String path) throws InterruptedException;

    /**
     * Reads the data of the node at {@code path}, with its stat.
     *
     * @param path the node's path
     * @return the node's data and stat
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    NodeData forPathWithStat(String path) throws InterruptedException;

    /**
     * {@link #forPath(String)} without blocking a thread.
     *
     * @param path the node's path
     * @return the node's data, or the failure
     */
    CompletableFuture<byte[]> forPathAsync(String path);

    /**
     * {@link #forPathWithStat(String)} without blocking a thread.
     *
     * @param path the node's path
     * @return the node's data and stat, or the failure
     */
    CompletableFuture<NodeData> forPathWithStatAsync(String path);
}

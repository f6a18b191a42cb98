package dev.baton.framework;

import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/** Checks whether a node exists: {@code client.checkExists().forPath("/a")} returns its stat or null. */
public interface ExistsBuilder {
    /**
     * Leaves a one-shot watch for the node's creation, change or deletion.
     *
     * @param watcher runs on the client's event executor when the node is created, changed or deleted
     * @return this builder
     */
    ExistsBuilder usingWatcher(Watcher watcher);

    /**
     * {@return the node's stat, or null if there is no such node}
     *
     * @param path the node's path
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    Stat forPath(String path) throws InterruptedException;

    /**
     * Completes with the node's stat, or null if there is no such node.
     *
     * @param path the node's path
     * @return the node's stat (null if there is no such node), or the failure
     */
    CompletableFuture<Stat> forPathAsync(String path);
}

package dev.baton.framework;

import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Watcher;

/** Reads a node's data: {@code client.getData().usingWatcher(w).forPath("/a")}. */
public interface GetDataBuilder {
    /**
     * Leaves a one-shot watch for the node's next change or deletion; {@code watcher} runs on the
     * client's event executor with the event's path without the namespace.
     */
    GetDataBuilder usingWatcher(Watcher watcher);

    byte[] forPath(String path) throws InterruptedException;

    NodeData forPathWithStat(String path) throws InterruptedException;

    CompletableFuture<byte[]> forPathAsync(String path);

    CompletableFuture<NodeData> forPathWithStatAsync(String path);
}

package dev.baton.framework;

import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/** Checks whether a node exists: {@code client.checkExists().forPath("/a")} returns its stat or null. */
public interface ExistsBuilder {
    /** Leaves a one-shot watch for the node's creation, change or deletion. */
    ExistsBuilder usingWatcher(Watcher watcher);

    /** The node's stat, or null if there is no such node. */
    Stat forPath(String path) throws InterruptedException;

    /** Completes with the node's stat, or null if there is no such node. */
    CompletableFuture<Stat> forPathAsync(String path);
}

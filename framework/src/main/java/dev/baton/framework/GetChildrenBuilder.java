package dev.baton.framework;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Watcher;

/** Lists a node's children: {@code client.getChildren().forPath("/a")} returns names, not paths. */
public interface GetChildrenBuilder {
    /** Leaves a one-shot watch for the next change of the node's children, or its deletion. */
    GetChildrenBuilder usingWatcher(Watcher watcher);

    List<String> forPath(String path) throws InterruptedException;

    NodeChildren forPathWithStat(String path) throws InterruptedException;

    CompletableFuture<List<String>> forPathAsync(String path);

    CompletableFuture<NodeChildren> forPathWithStatAsync(String path);
}

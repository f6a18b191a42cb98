package dev.baton.framework;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Watcher;

/** Lists a node's children: {@code client.getChildren().forPath("/a")} returns names, not paths. */
public interface GetChildrenBuilder {
    /**
     * Leaves a one-shot watch for the next change of the node's children, or its deletion.
     *
     * @param watcher runs on the client's event executor at the next change of the children
     * @return this builder
     */
    GetChildrenBuilder usingWatcher(Watcher watcher);

    /**
     * Lists the children of the node at {@code path}.
     *
     * @param path the node's path
     * @return the children's names, in no particular order
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    List<String> forPath(String path) throws InterruptedException;

    /**
     * Lists the children of the node at {@code path}, with the node's stat.
     *
     * @param path the node's path
     * @return the children's names and the node's stat
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    NodeChildren forPathWithStat(String path) throws InterruptedException;

    /**
     * {@link #forPath(String)} without blocking a thread.
     *
     * @param path the node's path
     * @return the children's names, or the failure
     */
    CompletableFuture<List<String>> forPathAsync(String path);

    /**
     * {@link #forPathWithStat(String)} without blocking a thread.
     *
     * @param path the node's path
     * @return the children's names and the node's stat, or the failure
     */
    CompletableFuture<NodeChildren> forPathWithStatAsync(String path);
}

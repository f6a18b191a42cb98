package dev.baton.framework;

import java.util.List;
import java.util.Map;
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

    /**
     * Reads the data of several nodes at once. On a server with a multi of reads (ZooKeeper
     * 3.6.0+, {@link ServerCapabilities.Feature#MULTI_READ}) the reads go in as few requests as
     * the reply size allows: a batch holds at most {@code 512 KiB / maxNodeBytes} reads (at least
     * one), so that its reply stays well under a ZooKeeper client's 1 MiB packet limit, which would
     * otherwise drop the connection. Elsewhere, or with a watcher set (a multi cannot leave
     * watches), one read per node, all sent at once. Each batch is retried as one operation; the
     * reads are not one snapshot of the tree.
     *
     * @param paths the nodes' paths
     * @param maxNodeBytes the most data one of the nodes may hold, as its writers keep to (a node
     *     larger than this in a batch of many can make the reply too large)
     * @return each existing node's data and stat, in the order given (a node that does not exist is left out)
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    Map<String, NodeData> forPaths(List<String> paths, int maxNodeBytes) throws InterruptedException;

    /**
     * {@link #forPaths(List, int)} without blocking a thread.
     *
     * @param paths the nodes' paths
     * @param maxNodeBytes the most data one of the nodes may hold
     * @return each existing node's data and stat in the order given, or the failure
     */
    CompletableFuture<Map<String, NodeData>> forPathsAsync(List<String> paths, int maxNodeBytes);
}

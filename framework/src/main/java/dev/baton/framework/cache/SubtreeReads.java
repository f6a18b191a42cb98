package dev.baton.framework.cache;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.internal.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The reads a {@link SnapshotCache} makes: of changed nodes, and of the whole subtree for a load. */
final class SubtreeReads {
    /** The node size given to a two-read batch (a changed node and the fence): small enough that both go in one multi. */
    private static final int FENCE_BATCH_NODE_BYTES = 64 * 1024;

    /** A node as a read found it: null data when there was no node. */
    record Read(String path, ChildData node) {
    }

    private SubtreeReads() {
    }

    /** Reads {@code paths} in one multi of reads if there are several (a changed node and the fence). */
    static CompletableFuture<List<Read>> read(BatonClient via, List<String> paths) {
        if (paths.size() == 1) {
            return read(via, paths.get(0)).thenApply(List::of);
        }
        // the fence is small (a release's number, id and time): a batch of it and one node is never larger than that node's own read
        return via.getData().forPathsAsync(paths, FENCE_BATCH_NODE_BYTES).thenApply(found -> {
            List<Read> reads = new ArrayList<>(paths.size());
            for (String p : paths) {
                NodeData node = found.get(p);
                reads.add(new Read(p, node == null ? null : new ChildData(p, node.data(), node.stat())));
            }
            return reads;
        });
    }

    private static CompletableFuture<Read> read(BatonClient via, String path) {
        return via.getData().forPathWithStatAsync(path)
            .thenApply(d -> new Read(path, new ChildData(path, d.data(), d.stat())))
            .exceptionally(e -> {
                if (Failures.rethrow(e) instanceof NoNodeException) {
                    return new Read(path, null);
                }
                throw Failures.rethrow(e);
            });
    }

    /**
     * Reads {@code path} and everything below it into {@code found}, but not below {@code fence}
     * (a node gone meanwhile is left out).
     */
    static CompletableFuture<Void> walk(BatonClient client, String path, String fence, Map<String, ChildData> found) {
        return read(client, path).thenCompose(read -> {
            ChildData node = read.node();
            if (node == null) {
                return CompletableFuture.completedFuture(null);
            }
            synchronized (found) {
                found.put(path, node);
            }
            if (path.equals(fence) || node.stat().getNumChildren() == 0) {
                return CompletableFuture.completedFuture(null);
            }
            return childrenOrNone(client, path)
                .thenCompose(children -> CompletableFuture.allOf(children.stream()
                    .map(child -> walk(client, Paths.join(path, child), fence, found))
                    .toArray(CompletableFuture[]::new)));
        });
    }

    /** The children of {@code path}, or none if the node is gone (also used by the tree cache's walk). */
    static CompletableFuture<List<String>> childrenOrNone(BatonClient client, String path) {
        return client.getChildren().forPathAsync(path)
            .exceptionally(e -> {
                if (Failures.rethrow(e) instanceof NoNodeException) {
                    return List.of();
                }
                throw Failures.rethrow(e);
            });
    }
}

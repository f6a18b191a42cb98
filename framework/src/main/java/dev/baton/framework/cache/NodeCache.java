package dev.baton.framework.cache;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.Optional;

/**
 * A local copy of one node (its data and stat, or its absence), kept current by a persistent
 * watch. A {@link TreeCache} of depth 0: same guarantees, including resynchronisation after
 * reconnect and session expiry.
 */
public final class NodeCache implements AutoCloseable {
    private final TreeCache tree;

    public NodeCache(BatonClient client, String path) {
        this.tree = TreeCache.builder(client, ZPaths.validateBasePath("NodeCache", path)).maxDepth(0).build();
    }

    public void start() {
        tree.start();
    }

    public boolean awaitInitialized(Duration timeout) throws InterruptedException {
        return tree.awaitInitialized(timeout);
    }

    /** The node as last seen, or empty if it does not exist. */
    public Optional<ChildData> current() {
        return tree.get(tree.root());
    }

    /** Hears ADDED (the node was created), UPDATED, REMOVED, and INITIALIZED. */
    public void addListener(CacheListener listener) {
        tree.addListener(listener);
    }

    @Override
    public void close() {
        tree.close();
    }
}

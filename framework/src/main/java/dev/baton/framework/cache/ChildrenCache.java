package dev.baton.framework.cache;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A local copy of a node's children (names, data and stats), kept current by one persistent
 * recursive watch: a {@link TreeCache} of depth 1 whose listeners hear only about the children.
 */
public final class ChildrenCache implements AutoCloseable {
    private final TreeCache tree;
    private final String path;

    public ChildrenCache(BatonClient client, String path) {
        this.tree = TreeCache.builder(client, ZPaths.validateBasePath("ChildrenCache", path)).maxDepth(1).build();
        this.path = path;
    }

    public void start() {
        tree.start();
    }

    public boolean awaitInitialized(Duration timeout) throws InterruptedException {
        return tree.awaitInitialized(timeout);
    }

    /** The children as last seen, by name, in name order. */
    public Map<String, ChildData> children() {
        return tree.children(path);
    }

    /** Hears ADDED, UPDATED and REMOVED for children, and INITIALIZED. */
    public void addListener(CacheListener listener) {
        Objects.requireNonNull(listener, "listener");
        tree.addListener(event -> {
            if (event.node() == null || !event.node().path().equals(path)) {
                listener.event(event);
            }
        });
    }

    @Override
    public void close() {
        tree.close();
    }
}

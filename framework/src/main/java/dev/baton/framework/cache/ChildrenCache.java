package dev.baton.framework.cache;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A local copy of a node's children (names, data and stats), kept current by one persistent
 * recursive watch: a {@link TreeCache} of depth 1 whose listeners hear only about the children.
 */
public final class ChildrenCache implements AutoCloseable {
    private final TreeCache tree;
    private final String path;
    private final Map<CacheListener, CacheListener> listeners = new ConcurrentHashMap<>();

    /**
     * A cache of the children of the node at {@code path}.
     *
     * @param client the client to read and watch with
     * @param path the parent node's path
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid path
     */
    public ChildrenCache(BatonClient client, String path) {
        this.tree = TreeCache.builder(client, ZPaths.validateBasePath("ChildrenCache", path)).maxDepth(1).build();
        this.path = path;
    }

    /**
     * Starts watching and loading, in the background; {@link #awaitInitialized} waits for the first load.
     *
     * @throws dev.baton.framework.ClientNotStartedException if the client was never started (start it, then this)
     * @throws dev.baton.framework.ClientClosedException if the client is closed
     */
    public void start() {
        tree.start();
    }

    /**
     * Waits for the first load; a close of the client ends the wait at once.
     *
     * @param timeout how long to wait at most
     * @return whether the first load is done
     * @throws dev.baton.framework.ClientClosedException if the client is closed (before or while it waits) and the
     *     first load is not done
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean awaitInitialized(Duration timeout) throws InterruptedException {
        return tree.awaitInitialized(timeout);
    }

    /** {@return the children as last seen, by name, in name order} */
    public Map<String, ChildData> children() {
        return tree.children(path);
    }

    /**
     * Hears ADDED, UPDATED and REMOVED for children, and INITIALIZED (adding a listener twice adds it once).
     *
     * @param listener the listener to add
     */
    public void addListener(CacheListener listener) {
        Objects.requireNonNull(listener, "listener");
        CacheListener childrenOnly = event -> {
            if (event.node() == null || !event.node().path().equals(path)) {
                listener.event(event);
            }
        };
        // under the map's lock for this listener, as the removal: a removal that ran between the
        // map's put and the tree's add would leave the tree a wrapper nothing can remove
        listeners.computeIfAbsent(listener, l -> {
            tree.addListener(childrenOnly);
            return childrenOnly;
        });
    }

    /**
     * Removes a listener; it hears nothing more.
     *
     * @param listener a listener added before (anything else is ignored)
     */
    public void removeListener(CacheListener listener) {
        listeners.computeIfPresent(listener, (l, childrenOnly) -> {
            tree.removeListener(childrenOnly);
            return null;
        });
    }

    @Override
    public void close() {
        tree.close();
    }
}

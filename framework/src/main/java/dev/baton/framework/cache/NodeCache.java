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

    /**
     * A cache of the node at {@code path}.
     *
     * @param client the client to read and watch with
     * @param path the node's path
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid path
     */
    public NodeCache(BatonClient client, String path) {
        this.tree = TreeCache.builder(client, ZPaths.validateBasePath("NodeCache", path)).maxDepth(0).build();
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

    /** {@return the node as last seen, or empty if it does not exist} */
    public Optional<ChildData> current() {
        return tree.get(tree.root());
    }

    /**
     * Hears ADDED (the node was created), UPDATED, REMOVED, and INITIALIZED (adding a listener
     * twice adds it once).
     *
     * @param listener the listener to add
     */
    public void addListener(CacheListener listener) {
        tree.addListener(listener);
    }

    /**
     * Removes a listener; it hears nothing more.
     *
     * @param listener the listener to remove
     */
    public void removeListener(CacheListener listener) {
        tree.removeListener(listener);
    }

    @Override
    public void close() {
        tree.close();
    }
}

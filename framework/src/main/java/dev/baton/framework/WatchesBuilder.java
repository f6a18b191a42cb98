package dev.baton.framework;

import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;

/**
 * Persistent watches, which stay until removed and do not need re-registering after each event:
 * {@code PERSISTENT} (the node and its children list) or {@code PERSISTENT_RECURSIVE} (every node
 * of the subtree). Watchers run on the client's event executor, with paths without the namespace.
 *
 * <p>Watches belong to a session: after a session expiry (LOST), add them again.
 */
public interface WatchesBuilder {
    void add(String path, AddWatchMode mode, Watcher watcher) throws InterruptedException;

    CompletableFuture<Void> addAsync(String path, AddWatchMode mode, Watcher watcher);

    /** Removes {@code watcher} from {@code path} for the given kind of watch. */
    void remove(String path, Watcher watcher, Watcher.WatcherType type) throws InterruptedException;

    /** Removes {@code watcher} from {@code path}; completes (without failing) also when there was nothing to remove. */
    CompletableFuture<Void> removeAsync(String path, Watcher watcher, Watcher.WatcherType type);

    /** Removes every watcher of the given kind from {@code path}. */
    void removeAll(String path, Watcher.WatcherType type) throws InterruptedException;
}

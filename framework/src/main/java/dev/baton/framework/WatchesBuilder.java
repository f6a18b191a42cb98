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
 *
 * <p>{@link #removeAll} and {@link #removeAllAsync} also take the one-shot watches the reads left
 * ({@code checkExists().usingWatcher(w)} and the like): how a recipe takes back a watch on a node
 * it no longer waits for, rather than leave it for the rest of the session.
 */
public interface WatchesBuilder {
    /**
     * Adds a persistent watch on {@code path}: it fires for every change until removed.
     *
     * @param path the watched node's path
     * @param mode the node alone, or the node and everything below it
     * @param watcher runs on the client's event executor, with paths without the namespace
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     * @throws IllegalStateException if called on ZooKeeper's event thread (from a watcher set through
     *     the raw handle), which delivers the reply this call waits for: use {@link #addAsync}
     */
    void add(String path, AddWatchMode mode, Watcher watcher) throws InterruptedException;

    /**
     * {@link #add} without blocking a thread.
     *
     * @param path the watched node's path
     * @param mode the node alone, or the node and everything below it
     * @param watcher runs on the client's event executor, with paths without the namespace
     * @return completes when the watch is set, or with the failure
     */
    CompletableFuture<Void> addAsync(String path, AddWatchMode mode, Watcher watcher);

    /**
     * Removes {@code watcher} from {@code path} for the given kind of watch. When no other watcher
     * of this client is left there as that kind, the server's watch is removed too, so that it
     * sends the session nothing more for it. A watcher added there as that kind while the removal
     * is under way keeps its watch: the removal either counts it or reaches the server before it.
     *
     * @param path the watched node's path
     * @param watcher the watcher to remove
     * @param type which of its watches to remove
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     * @throws IllegalStateException if called on ZooKeeper's event thread (from a watcher set through
     *     the raw handle), which delivers the reply this call waits for: use {@link #removeAsync}
     */
    void remove(String path, Watcher watcher, Watcher.WatcherType type) throws InterruptedException;

    /**
     * Removes {@code watcher} from {@code path}; completes (without failing) also when there was nothing to
     * remove. As {@link #remove}, the server's watch goes with the last watcher of its kind there.
     *
     * @param path the watched node's path
     * @param watcher the watcher to remove
     * @param type which of its watches to remove
     * @return completes when the watch is removed, or with the failure
     */
    CompletableFuture<Void> removeAsync(String path, Watcher watcher, Watcher.WatcherType type);

    /**
     * Removes every watcher of the given kind from {@code path}.
     *
     * @param path the watched node's path
     * @param type which watches to remove
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    void removeAll(String path, Watcher.WatcherType type) throws InterruptedException;

    /**
     * {@link #removeAll} without blocking a thread; it completes (without failing) also when there
     * was nothing to remove, or the client is closed (its session took its watches with it). With
     * {@link Watcher.WatcherType#Data} it takes the one-shot watches that {@code checkExists()} and
     * {@code getData()} left at {@code path} — every watcher of this client there, on the client
     * and on the server — and leaves persistent watches alone. Not so on a 3.8 server (seen on
     * 3.8.6; 3.9.5 keeps them apart), which keeps one watch per session and path whatever its kind:
     * there it takes a {@code PERSISTENT} watch at {@code path} off the server too, while this client
     * still lists it (its watcher hears nothing more), and a one-shot read at that path already turns
     * that watch one-shot. Sent when connected and retried as any request; a session expiry meanwhile
     * has dropped them already.
     *
     * @param path the watched node's path (it need not exist)
     * @param type which watches to remove
     * @return completes when the watches are removed or there were none; fails only if no
     *     connection came within the retry policy
     */
    CompletableFuture<Void> removeAllAsync(String path, Watcher.WatcherType type);
}

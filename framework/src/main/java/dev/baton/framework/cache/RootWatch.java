package dev.baton.framework.cache;

import dev.baton.framework.BatonClient;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;

/**
 * A cache's persistent watch of its root ({@link SnapshotCache}, {@link TreeCache}): recursive, or of the
 * root alone for a cache of the root alone (which then also hears of children added and removed). Added
 * by each load on a new session and removed when the cache closes, so that once the cache is closed (and the removal
 * has had its round trip) the session keeps no watch of the root, also when a load's add was
 * still on its way at the close.
 */
final class RootWatch {
    private final BatonClient client;
    private final String root;
    private final Watcher watcher;
    private final AddWatchMode mode;
    /**
     * Guards the fields below only, and is held for nothing else: close() must not wait for the
     * cache's lock, which ZooKeeper's event thread holds while it may wait for the connection's
     * lock, held by a state listener that may be the one closing the cache.
     */
    private final Object lock = new Object();
    /** Whether an add has not been answered yet: close() then leaves the removal to its answer. */
    private boolean adding;
    /** Whether an add was ever sent: a cache that never loaded has no watch to remove. */
    private boolean sent;
    private boolean closed;

    RootWatch(BatonClient client, String root, Watcher watcher) {
        this(client, root, watcher, AddWatchMode.PERSISTENT_RECURSIVE);
    }

    /** With {@code mode} PERSISTENT: a watch of the root alone, for a cache of the root alone. */
    RootWatch(BatonClient client, String root, Watcher watcher, AddWatchMode mode) {
        this.client = client;
        this.root = root;
        this.watcher = watcher;
        this.mode = mode;
    }

    /**
     * Adds the watch, unless the cache is closed.
     *
     * @return the add's answer, or null if the cache is closed and nothing was sent
     */
    CompletableFuture<Void> add() {
        synchronized (lock) {
            // either close() counts this add, or it came first and no add is sent
            if (closed) {
                return null;
            }
            adding = true;
            sent = true;
        }
        CompletableFuture<Void> added = client.watches().addAsync(root, mode, watcher);
        added.whenComplete((v, failure) -> answered()); // also a failed add: the server may have applied it
        return added;
    }

    /** Removes the watch now, or when the add on its way is answered (nothing if none was ever added). */
    void close() {
        boolean removeNow;
        synchronized (lock) {
            closed = true;
            removeNow = sent && !adding;
        }
        if (removeNow) {
            remove();
        }
    }

    /** An add was answered: if the cache closed meanwhile, the watch came after (or with) close()'s removal and goes now. */
    private void answered() {
        boolean remove;
        synchronized (lock) {
            adding = false;
            remove = closed;
        }
        if (remove) {
            remove();
        }
    }

    private void remove() {
        if (!client.isClosed()) {
            client.watches().removeAsync(root, watcher, Watcher.WatcherType.Any);
        }
    }
}

package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.WatchesBuilder;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentMap;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

/**
 * Persistent watches. The caller's watcher is wrapped (to run on the event executor and see
 * namespace-free paths); the wrapper is remembered per watcher and namespace so remove() can name
 * the same object ZooKeeper registered.
 */
final class WatchesOp implements WatchesBuilder {
    /** A caller's watcher in one namespace. */
    record Key(Watcher watcher, String namespace) {
    }

    private final NamespacedClient c;

    WatchesOp(NamespacedClient c) {
        this.c = c;
    }

    private ConcurrentMap<Key, Watcher> wrappers() {
        return c.core.watcherWrappers;
    }

    private Watcher wrapped(Watcher watcher) {
        return wrappers().computeIfAbsent(new Key(watcher, c.namespace), k -> c.core.dispatching(watcher, c.namespace));
    }

    @Override
    public void add(String path, AddWatchMode mode, Watcher watcher) throws InterruptedException {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(watcher, "watcher");
        String full = c.prepare("addWatch", path, false);
        Watcher w = wrapped(watcher);
        c.retry().call("addWatch", path, (zk, n) -> {
            zk.addWatch(full, w, mode);
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> addAsync(String path, AddWatchMode mode, Watcher watcher) {
        String full;
        try {
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(watcher, "watcher");
            full = c.prepare("addWatch", path, false);
        } catch (BatonException | NullPointerException e) {
            return CompletableFuture.failedFuture(e);
        }
        Watcher w = wrapped(watcher);
        return c.retry().callAsync("addWatch", path, (zk, n) -> c.zk().addWatch(zk, full, w, mode, "addWatch", path));
    }

    @Override
    public void remove(String path, Watcher watcher, Watcher.WatcherType type) throws InterruptedException {
        Objects.requireNonNull(watcher, "watcher");
        Objects.requireNonNull(type, "type");
        String full = c.prepare("removeWatches", path, false);
        Watcher w = wrappers().get(new Key(watcher, c.namespace));
        if (w == null) {
            throw Errors.of(KeeperException.Code.NOWATCHER, "removeWatches", path, null);
        }
        c.retry().call("removeWatches", path, (zk, n) -> {
            zk.removeWatches(full, w, type, false);
            return null;
        });
        wrappers().remove(new Key(watcher, c.namespace), w);
    }

    @Override
    public CompletableFuture<Void> removeAsync(String path, Watcher watcher, Watcher.WatcherType type) {
        Watcher w = watcher == null ? null : wrappers().remove(new Key(watcher, c.namespace));
        if (w == null || c.core.isClosed()) {
            return CompletableFuture.completedFuture(null);
        }
        String full = c.prepare("removeWatches", path, false);
        CompletableFuture<Void> done = new CompletableFuture<>();
        c.core.connection.whenConnected("removeWatches", path).whenComplete((zk, e) -> {
            if (e != null) {
                done.complete(null);
                return;
            }
            zk.removeWatches(full, w, type, true, (rc, p, ctx) -> c.core.async.execute(() -> done.complete(null)), null);
        });
        return done;
    }

    @Override
    public void removeAll(String path, Watcher.WatcherType type) throws InterruptedException {
        Objects.requireNonNull(type, "type");
        String full = c.prepare("removeAllWatches", path, false);
        c.retry().call("removeAllWatches", path, (zk, n) -> {
            zk.removeAllWatches(full, type, false);
            return null;
        });
    }
}

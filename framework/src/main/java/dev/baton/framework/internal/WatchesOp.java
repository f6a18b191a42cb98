package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.Failures;
import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.UnsupportedByServerException;
import dev.baton.framework.ZooKeeperException;
import dev.baton.framework.WatchesBuilder;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentMap;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * Persistent watches. The caller's watcher is wrapped (to run on the event executor and see
 * namespace-free paths); the wrapper is remembered per watcher, namespace and kind so remove() can
 * name the same object ZooKeeper registered.
 *
 * <p>A recursive watch's wrapper also drops child-list events ({@link #deliversToRecursive}): a
 * persistent recursive watch promises none, but servers before 3.9.0 send them to a session
 * that also has a child watch below the recursive one (the contention engine's and the caches'
 * one-shot watches are such); the 3.9 client drops them itself, an older client jar may pass
 * them on. A server that does not know {@code addWatch} (before 3.6.0) gets an
 * {@link UnsupportedByServerException}.
 */
final class WatchesOp implements WatchesBuilder {
    /** A caller's watcher in one namespace, for one kind of watch. */
    record Key(Watcher watcher, String namespace, boolean recursive) {
    }

    private final NamespacedClient c;

    WatchesOp(NamespacedClient c) {
        this.c = c;
    }

    private ConcurrentMap<Key, Watcher> wrappers() {
        return c.core.watcherWrappers;
    }

    private Watcher wrapped(Watcher watcher, AddWatchMode mode) {
        boolean recursive = mode == AddWatchMode.PERSISTENT_RECURSIVE;
        return wrappers().computeIfAbsent(new Key(watcher, c.namespace, recursive), k -> {
            Watcher dispatching = c.core.dispatching(watcher, c.namespace);
            return recursive ? event -> {
                if (deliversToRecursive(event)) {
                    dispatching.process(event);
                }
            } : dispatching;
        });
    }

    /** Whether a persistent recursive watcher hears {@code event}: everything but a child-list change. */
    static boolean deliversToRecursive(WatchedEvent event) {
        return event.getType() != Watcher.Event.EventType.NodeChildrenChanged;
    }

    private UnsupportedByServerException refused(String path, Throwable cause) {
        c.core.refused(ServerCapabilities.Feature.PERSISTENT_RECURSIVE_WATCHES);
        return new UnsupportedByServerException(ServerCapabilities.Feature.PERSISTENT_RECURSIVE_WATCHES,
            c.core.capabilities(), "addWatch", path, cause);
    }

    private static boolean unimplemented(Throwable e) {
        return e instanceof ZooKeeperException z && z.code() == KeeperException.Code.UNIMPLEMENTED;
    }

    @Override
    public void add(String path, AddWatchMode mode, Watcher watcher) throws InterruptedException {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(watcher, "watcher");
        String full = c.prepare("addWatch", path, false);
        Watcher w = wrapped(watcher, mode);
        c.retry().call("addWatch", path, (zk, n) -> {
            try {
                zk.addWatch(full, w, mode);
            } catch (KeeperException.UnimplementedException e) {
                throw refused(path, e);
            }
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
        Watcher w = wrapped(watcher, mode);
        return c.retry().callAsync("addWatch", path, (zk, n) -> c.zk().addWatch(zk, full, w, mode, "addWatch", path)
            .exceptionallyCompose(e -> CompletableFuture.failedFuture(
                unimplemented(Failures.unwrap(e)) ? refused(path, Failures.unwrap(e)) : Failures.unwrap(e))));
    }

    @Override
    public void remove(String path, Watcher watcher, Watcher.WatcherType type) throws InterruptedException {
        Objects.requireNonNull(watcher, "watcher");
        Objects.requireNonNull(type, "type");
        String full = c.prepare("removeWatches", path, false);
        boolean any = false;
        for (boolean recursive : new boolean[] {false, true}) {
            Key key = new Key(watcher, c.namespace, recursive);
            Watcher w = wrappers().get(key);
            if (w != null) {
                any = true;
                c.retry().call("removeWatches", path, (zk, n) -> {
                    zk.removeWatches(full, w, type, false);
                    return null;
                });
                wrappers().remove(key, w);
            }
        }
        if (!any) {
            throw Errors.of(KeeperException.Code.NOWATCHER, "removeWatches", path, null);
        }
    }

    @Override
    public CompletableFuture<Void> removeAsync(String path, Watcher watcher, Watcher.WatcherType type) {
        if (watcher == null) {
            return CompletableFuture.completedFuture(null);
        }
        Watcher plain = wrappers().remove(new Key(watcher, c.namespace, false));
        Watcher recursive = wrappers().remove(new Key(watcher, c.namespace, true));
        return CompletableFuture.allOf(removeWrapper(path, plain, type), removeWrapper(path, recursive, type));
    }

    private CompletableFuture<Void> removeWrapper(String path, Watcher w, Watcher.WatcherType type) {
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

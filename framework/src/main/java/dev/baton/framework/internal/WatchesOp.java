package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.UnsupportedByServerException;
import dev.baton.framework.ZooKeeperException;
import dev.baton.framework.WatchesBuilder;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Persistent watches. The caller's watcher is wrapped (to run on the event executor and see
 * namespace-free paths); the wrapper is remembered per watcher, namespace and kind so remove() can
 * name the same object ZooKeeper registered, with the paths it was added at: one watcher may be
 * added at several paths, as one kind or both, and removing it at one path leaves the others.
 *
 * <p>A recursive watch's wrapper also drops child-list events ({@link #deliversToRecursive}): a
 * persistent recursive watch promises none, but servers before 3.9.0 send them to a session
 * that also has a child watch below the recursive one (the contention engine's and the caches'
 * one-shot watches are such); the 3.9 client drops them itself, an older client jar may pass
 * them on. A server that does not know {@code addWatch} (before 3.6.0) gets an
 * {@link UnsupportedByServerException}.
 *
 * <p>ZooKeeper's removal of one watcher only checks on the server (the server keeps one watch
 * per session and path, not per watcher): the last watcher of a kind at a path is removed with
 * {@code removeAllWatches} of that kind, or the server would go on sending its events (a
 * recursive watch: the whole subtree's) for the rest of the session. Whether it is the last is
 * decided, and the removal sent, under the lock every addWatch is sent under (both forms, each
 * attempt): an add racing with the removal is either seen by that decision or reaches the server
 * after the removal, so a watcher added meanwhile never loses the server's watch to it. Requests
 * are only queued under that lock; the blocking forms wait for the answer outside it.
 */
final class WatchesOp implements WatchesBuilder {
    /** The class of the thread on which ZooKeeper's client delivers events and the answers to asynchronous calls. */
    private static final String ZOOKEEPER_EVENT_THREAD = "org.apache.zookeeper.ClientCnxn$EventThread";

    /** A caller's watcher in one namespace, for one kind of watch. */
    record Key(Watcher watcher, String namespace, boolean recursive) {
    }

    /**
     * The wrapper ZooKeeper holds for one {@link Key}, and the (full) paths it was added at. A path
     * is recorded before its addWatch is sent and kept if that fails (the server may have applied
     * it before the connection dropped): a remove there that ZooKeeper answers "no watcher" just
     * drops it. The entry goes when its last path is removed.
     */
    static final class Registered {
        final Watcher wrapper;
        final Set<String> paths = ConcurrentHashMap.newKeySet();

        Registered(Watcher wrapper) {
            this.wrapper = wrapper;
        }
    }

    private final NamespacedClient c;

    WatchesOp(NamespacedClient c) {
        this.c = c;
    }

    private ConcurrentMap<Key, Registered> registered() {
        return c.core.watcherWrappers;
    }

    /** The wrapper for {@code watcher} as {@code mode}, recorded as added at {@code full}. */
    private Watcher wrapped(Watcher watcher, AddWatchMode mode, String full) {
        boolean recursive = mode == AddWatchMode.PERSISTENT_RECURSIVE;
        // compute, not computeIfAbsent then add: a remove dropping the entry in between would lose the path
        return registered().compute(new Key(watcher, c.namespace, recursive), (k, r) -> {
            Registered now = r != null ? r : new Registered(wrapper(watcher, recursive));
            now.paths.add(full);
            return now;
        }).wrapper;
    }

    private Watcher wrapper(Watcher watcher, boolean recursive) {
        Watcher dispatching = c.core.dispatching(watcher, c.namespace);
        return recursive ? event -> {
            if (deliversToRecursive(event)) {
                dispatching.process(event);
            }
        } : dispatching;
    }

    /** {@code watcher}'s kind ({@code recursive} or not) is no longer at {@code full}; the entry goes with its last path. */
    private void forget(Key key, String full) {
        registered().computeIfPresent(key, (k, r) -> {
            r.paths.remove(full);
            return r.paths.isEmpty() ? null : r;
        });
    }

    /** Whether a remove of {@code type} takes off a persistent watch of this kind, so its path is forgotten. */
    private static boolean removesKind(Watcher.WatcherType type, boolean recursive) {
        return type == Watcher.WatcherType.Any
            || type == (recursive ? Watcher.WatcherType.PersistentRecursive : Watcher.WatcherType.Persistent);
    }
    /** The type that names a persistent watch of this kind in a removal. */
    private static Watcher.WatcherType kind(boolean recursive) {
        return recursive ? Watcher.WatcherType.PersistentRecursive : Watcher.WatcherType.Persistent;
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

    /**
     * The blocking forms wait for an answer that ZooKeeper's event thread delivers: called on that
     * thread (from a watcher set through the raw handle), they would wait for ever, so they refuse.
     */
    private static void notOnEventThread(String operation, String path) {
        if (Thread.currentThread().getClass().getName().equals(ZOOKEEPER_EVENT_THREAD)) {
            throw new IllegalStateException(operation + " of " + path + ": a blocking call on ZooKeeper's event thread (a watcher"
                + " set through the raw handle) would wait for ever for the answer that thread delivers; call it from another"
                + " thread, or use the async form");
        }
    }

    @Override
    public void add(String path, AddWatchMode mode, Watcher watcher) throws InterruptedException {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(watcher, "watcher");
        notOnEventThread("addWatch", path);
        String full = c.prepare("addWatch", path, false);
        wrapped(watcher, mode, full); // recorded from the start (see Registered); each send records it again
        c.retry().call("addWatch", path, (zk, n) -> {
            // sent as addAsync's are (see sendAdd), so that a removal's decision sees it; then waited for here
            try {
                return Futures.await(sendAdd(zk, watcher, mode, full, path));
            } catch (BatonException e) {
                throw unimplemented(e) ? refused(path, e) : e;
            }
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
        wrapped(watcher, mode, full); // recorded from the start (see Registered); each send records it again
        return c.retry().callAsync("addWatch", path, (zk, n) -> sendAdd(zk, watcher, mode, full, path)
            .exceptionallyCompose(e -> CompletableFuture.failedFuture(
                unimplemented(Failures.unwrap(e)) ? refused(path, Failures.unwrap(e)) : Failures.unwrap(e))));
    }

    /**
     * Sends one addWatch (of either form: every addWatch goes through here), recording the path
     * again first: a remove that came since the add was asked for forgot it, and the server is about
     * to hold the watch. Under the registry's lock, so that a remove deciding whether to take the
     * server's watch away (see {@link #sendRemove}) sees every add sent before its own request.
     */
    private CompletableFuture<Void> sendAdd(ZooKeeper zk, Watcher watcher, AddWatchMode mode, String full, String path) {
        synchronized (registered()) {
            Watcher w = wrapped(watcher, mode, full);
            return c.zk().addWatch(zk, full, w, mode, "addWatch", path);
        }
    }

    /**
     * Whether no watcher of this client (any namespace) but {@code except} (may be null) is recorded
     * as added at {@code full} as this kind: then the server's watch there serves nobody else.
     */
    private boolean noneLeft(String full, boolean recursive, Key except) {
        for (Map.Entry<Key, Registered> e : registered().entrySet()) {
            if (e.getKey().recursive() == recursive && !e.getKey().equals(except) && e.getValue().paths.contains(full)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sends the removal of {@code r}'s watch. ZooKeeper's {@code removeWatches} of one watcher takes
     * it off the client only: the server keeps one watch per session and path, and would send
     * the whole subtree's events for the rest of the session. So when no other watcher of this
     * client is left there as this kind, the server's watch of that kind is removed too
     * ({@code removeAllWatches}, which only the server's watch of this kind and this client's
     * watchers of it, none left but this one, are subject to). Decided and sent under the registry's
     * lock, with every add sent before this request seen (see {@link #sendAdd}); the request is only
     * queued there, the answer comes to {@code cb}. An add sent after it reaches the server after it,
     * and so keeps its watch. Each attempt of either form of remove decides again.
     *
     * @param except a watcher whose path is still recorded though it is the one being removed (the
     *     blocking form forgets the path only once the server has answered), or null
     */
    private void sendRemove(ZooKeeper zk, String full, Key key, Registered r, Watcher.WatcherType type, boolean local,
                            Key except, AsyncCallback.VoidCallback cb) {
        synchronized (registered()) {
            if (removesKind(type, key.recursive()) && noneLeft(full, key.recursive(), except)) {
                zk.removeAllWatches(full, kind(key.recursive()), local, cb, null);
            } else {
                zk.removeWatches(full, r.wrapper, type, local, cb, null);
            }
        }
    }

    /**
     * {@inheritDoc} Each kind the watcher was added as at {@code path} is removed; it succeeds if
     * one was there, and a kind added only at other paths is not tried here (ZooKeeper would say
     * "no watcher" for it, although the removal took place).
     */
    @Override
    public void remove(String path, Watcher watcher, Watcher.WatcherType type) throws InterruptedException {
        Objects.requireNonNull(watcher, "watcher");
        Objects.requireNonNull(type, "type");
        notOnEventThread("removeWatches", path);
        String full = c.prepare("removeWatches", path, false);
        BatonException none = null;
        boolean removed = false;
        for (boolean recursive : new boolean[] {false, true}) {
            Key key = new Key(watcher, c.namespace, recursive);
            Registered r = registered().get(key);
            if (r == null || !r.paths.contains(full)) {
                continue;
            }
            try {
                c.retry().call("removeWatches", path, (zk, n) -> {
                    // as removeAsync's: decided and sent under the registry's lock (see sendRemove), waited for here
                    CompletableFuture<Integer> answer = new CompletableFuture<>();
                    sendRemove(zk, full, key, r, type, false, key, (rc, p, ctx) -> answer.complete(rc));
                    int rc = Futures.await(answer);
                    if (rc != KeeperException.Code.OK.intValue()) {
                        throw Errors.of(rc, "removeWatches", path);
                    }
                    return null;
                });
                removed = true;
            } catch (BatonException e) {
                if (e.code() != KeeperException.Code.NOWATCHER) {
                    throw e;
                }
                none = e; // gone already (a session expiry, or a remove of the other type): not there
                forget(key, full);
                continue;
            }
            if (removesKind(type, recursive)) {
                forget(key, full);
            }
        }
        if (!removed) {
            throw none != null ? none : Errors.of(KeeperException.Code.NOWATCHER, "removeWatches", path, null);
        }
    }

    @Override
    public CompletableFuture<Void> removeAsync(String path, Watcher watcher, Watcher.WatcherType type) {
        if (watcher == null) {
            return CompletableFuture.completedFuture(null);
        }
        String full;
        try {
            full = c.prepare("removeWatches", path, false);
        } catch (BatonException e) {
            return CompletableFuture.completedFuture(null); // nothing can have been added there
        }
        return CompletableFuture.allOf(removeWrapper(path, full, new Key(watcher, c.namespace, false), type),
            removeWrapper(path, full, new Key(watcher, c.namespace, true), type));
    }

    private CompletableFuture<Void> removeWrapper(String path, String full, Key key, Watcher.WatcherType type) {
        Registered r = registered().get(key);
        if (r == null || !r.paths.contains(full)) {
            return CompletableFuture.completedFuture(null);
        }
        if (removesKind(type, key.recursive())) {
            forget(key, full);
        }
        if (c.core.isClosed()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        c.core.connection.whenConnected("removeWatches", path).whenComplete((zk, e) -> {
            if (e != null) {
                done.complete(null);
                return;
            }
            sendRemove(zk, full, key, r, type, true, null, (rc, p, ctx) -> c.core.async.execute(() -> done.complete(null)));
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
        forgetAll(full, type);
    }

    /** The persistent watchers a removal of every watch of {@code type} at {@code full} takes, forgotten. */
    private void forgetAll(String full, Watcher.WatcherType type) {
        for (Key key : registered().keySet()) {
            if (removesKind(type, key.recursive())) { // full paths: every view's watchers there are gone
                forget(key, full);
            }
        }
    }

    /**
     * {@inheritDoc} Not through the local-only form: the server's watch must go too, and a request
     * whose answer was lost is retried (the client sets its watches again on a reconnection, so the
     * retry finds them); "no watcher" is success, inside the attempt, so the request is reported to
     * the client's observer as succeeded (as a quiet delete's "no node" is).
     */
    @Override
    public CompletableFuture<Void> removeAllAsync(String path, Watcher.WatcherType type) {
        String full;
        try {
            Objects.requireNonNull(type, "type");
            if (c.core.isClosed()) {
                return CompletableFuture.completedFuture(null);
            }
            full = c.prepare("removeAllWatches", path, false);
        } catch (BatonException | NullPointerException e) {
            return CompletableFuture.failedFuture(e);
        }
        forgetAll(full, type);
        return c.retry().callAsync("removeAllWatches", path, (zk, n) -> {
            // under the registry's lock, as sendRemove: an add sent after this request reaches the server after it
            CompletableFuture<Void> sent;
            synchronized (registered()) {
                sent = c.zk().removeAllWatches(zk, full, type, "removeAllWatches", path);
            }
            return sent.exceptionallyCompose(e -> Failures.unwrap(e) instanceof BatonException b
                && b.code() == KeeperException.Code.NOWATCHER ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(e));
        }).exceptionallyCompose(e -> {
            Throwable cause = Failures.unwrap(e);
            // a closed client or an expired session took its watches with it
            boolean nothingLeft = cause instanceof ClientClosedException || cause instanceof SessionExpiredException;
            return nothingLeft ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(cause);
        });
    }
}

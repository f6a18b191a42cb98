package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.NodeChildren;
import dev.baton.framework.NodeData;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * ZooKeeper's asynchronous calls as futures. Each future completes on the framework's async
 * executor, never on ZooKeeper's event thread, and fails with the {@link BatonException} for the
 * result code, naming {@code operation} and the caller's path.
 */
public final class AsyncZk {
    private final Executor async;

    public AsyncZk(Executor async) {
        this.async = async;
    }

    /** A created node as the server reports it: full path and stat. */
    public record Created(String path, Stat stat) {
    }

    public CompletableFuture<Created> create(ZooKeeper zk, String path, byte[] data, List<ACL> acl, CreateMode mode,
                                            long ttl, String operation, String userPath) {
        CompletableFuture<Created> f = new CompletableFuture<>();
        zk.create(path, data, acl, mode, (rc, p, ctx, name, stat) ->
            finish(f, rc, () -> new Created(name, stat), operation, userPath), null, ttl);
        return f;
    }

    public CompletableFuture<NodeData> getData(ZooKeeper zk, String path, Watcher watcher, String operation, String userPath) {
        CompletableFuture<NodeData> f = new CompletableFuture<>();
        zk.getData(path, watcher, (rc, p, ctx, data, stat) ->
            finish(f, rc, () -> new NodeData(data == null ? new byte[0] : data, stat), operation, userPath), null);
        return f;
    }

    public CompletableFuture<NodeChildren> getChildren(ZooKeeper zk, String path, Watcher watcher, String operation, String userPath) {
        CompletableFuture<NodeChildren> f = new CompletableFuture<>();
        zk.getChildren(path, watcher, (rc, p, ctx, children, stat) ->
            finish(f, rc, () -> new NodeChildren(children, stat), operation, userPath), null);
        return f;
    }

    /** Completes with the stat, or null when there is no node. */
    public CompletableFuture<Stat> exists(ZooKeeper zk, String path, Watcher watcher, String operation, String userPath) {
        CompletableFuture<Stat> f = new CompletableFuture<>();
        zk.exists(path, watcher, (rc, p, ctx, stat) -> {
            if (rc == KeeperException.Code.NONODE.intValue()) {
                execute(f, () -> f.complete(null), operation, userPath);
            } else {
                finish(f, rc, () -> stat, operation, userPath);
            }
        }, null);
        return f;
    }

    public CompletableFuture<Stat> setData(ZooKeeper zk, String path, byte[] data, int version, String operation, String userPath) {
        CompletableFuture<Stat> f = new CompletableFuture<>();
        zk.setData(path, data, version, (rc, p, ctx, stat) -> finish(f, rc, () -> stat, operation, userPath), null);
        return f;
    }

    public CompletableFuture<Void> delete(ZooKeeper zk, String path, int version, String operation, String userPath) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        zk.delete(path, version, (rc, p, ctx) -> finish(f, rc, () -> null, operation, userPath), null);
        return f;
    }

    /** Completes with the per-operation results; a rejected transaction completes with them too (the caller inspects). */
    public CompletableFuture<List<OpResult>> multi(ZooKeeper zk, List<Op> ops, String operation, String userPath) {
        CompletableFuture<List<OpResult>> f = new CompletableFuture<>();
        zk.multi(ops, (rc, p, ctx, results) -> {
            if (results != null && !results.isEmpty()) {
                execute(f, () -> f.complete(results), operation, userPath);
            } else {
                finish(f, rc, () -> results, operation, userPath);
            }
        }, null);
        return f;
    }

    /** The session's own ephemeral nodes whose paths start with {@code prefix} (servers 3.6.0 and later). */
    public CompletableFuture<List<String>> getEphemerals(ZooKeeper zk, String prefix, String operation, String userPath) {
        CompletableFuture<List<String>> f = new CompletableFuture<>();
        zk.getEphemerals(prefix, (rc, ctx, paths) -> finish(f, rc, () -> paths == null ? List.of() : paths, operation, userPath), null);
        return f;
    }

    public CompletableFuture<Void> sync(ZooKeeper zk, String path, String operation, String userPath) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        zk.sync(path, (rc, p, ctx) -> finish(f, rc, () -> null, operation, userPath), null);
        return f;
    }

    public CompletableFuture<Void> addWatch(ZooKeeper zk, String path, Watcher watcher, AddWatchMode mode,
                                            String operation, String userPath) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        zk.addWatch(path, watcher, mode, (rc, p, ctx) -> finish(f, rc, () -> null, operation, userPath), null);
        return f;
    }

    /** Removes every watch of {@code type} at {@code path}, on the server too (not only locally). */
    public CompletableFuture<Void> removeAllWatches(ZooKeeper zk, String path, Watcher.WatcherType type, String operation,
                                                    String userPath) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        zk.removeAllWatches(path, type, false, (rc, p, ctx) -> finish(f, rc, () -> null, operation, userPath), null);
        return f;
    }

    /** Completes {@code f} on the async executor: with {@code value} on OK, else with the failure for {@code rc}. */
    private <T> void finish(CompletableFuture<T> f, int rc, Supplier<T> value, String operation, String userPath) {
        if (rc == KeeperException.Code.OK.intValue()) {
            T v = value.get();
            execute(f, () -> f.complete(v), operation, userPath);
        } else {
            BatonException failure = Errors.of(rc, operation, userPath);
            execute(f, () -> f.completeExceptionally(failure), operation, userPath);
        }
    }

    /** Hands a completion to the async executor; if the client is closing, the caller learns that instead. */
    private void execute(CompletableFuture<?> f, Runnable completion, String operation, String userPath) {
        try {
            async.execute(completion);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            f.completeExceptionally(new dev.baton.framework.ClientClosedException(operation, userPath));
        }
    }
}

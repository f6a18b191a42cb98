package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.NoNodeException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes that must happen even if the connection is down when they are asked for: guaranteed
 * deletes ({@code delete().guaranteed()}) and the orphans of protected creates that finally
 * failed (found by the create's own prefix, and under session protection by its mark, so that
 * no other create's node is touched). Each is retried on every reconnection and every few seconds until the node is gone,
 * or until a failure shows it can never succeed (bad version, not empty, no auth), which is logged.
 * It works only while the client is connected to a writable server: a read-only server (READ_ONLY)
 * answers every delete with NOTREADONLY, which says "not here, not now" — the task waits for a
 * writable server like any other. A client closed with work pending logs what it leaves behind.
 */
public final class BackgroundDeletes {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundDeletes.class);
    private static final Duration INTERVAL = Duration.ofSeconds(2);

    /**
     * A node to delete; or (prefix non-null) every child of {@code path} whose name starts with
     * prefix and, when {@code mark} is non-null, whose data carries that create's mark.
     */
    private record Task(String path, int version, String prefix, UUID mark) {
        @Override
        public String toString() {
            return prefix == null ? path : path + "/" + prefix + "*" + (mark == null ? "" : " marked " + mark);
        }
    }

    private final Connection connection;
    private final AsyncZk zk;
    private final ScheduledExecutorService scheduler;
    private final Set<Task> pending = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    public BackgroundDeletes(Connection connection, AsyncZk zk, ScheduledExecutorService scheduler) {
        this.connection = connection;
        this.zk = zk;
        this.scheduler = scheduler;
    }

    /** Deletes the node at server path {@code path} (at {@code version}, -1 for any), eventually. */
    public void delete(String path, int version) {
        submit(new Task(path, version, null, null));
    }

    /**
     * Deletes, eventually, the node(s) one protected create made under server path {@code parent}:
     * the children whose name starts with {@code prefix} and, if {@code mark} is non-null (session
     * protection, where every create of the session shares the prefix), whose data carries the
     * create's mark. Without a mark the prefix must name the create alone ({@code _c_<uuid>-}).
     */
    void deleteOwn(String parent, String prefix, UUID mark) {
        submit(new Task(parent, -1, prefix, mark));
    }

    /** Tells the deleter about a connection state: it works as soon as the client reaches a writable server. */
    public void onState(ConnectionState state) {
        if (state.isWritable() && !pending.isEmpty()) {
            runAll();
        }
    }

    /** Number of deletes not yet done. */
    public int pendingCount() {
        return pending.size();
    }

    public void close() {
        if (!pending.isEmpty()) {
            LOG.warn("client closed with {} background delete(s) not done: {}", pending.size(), pending);
        }
    }

    private void submit(Task task) {
        pending.add(task);
        run(task);
        scheduleSweep();
    }

    private void scheduleSweep() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                scheduler.schedule(() -> {
                    scheduled.set(false);
                    if (!pending.isEmpty()) {
                        runAll();
                        scheduleSweep();
                    }
                }, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                scheduled.set(false);
            }
        }
    }

    private void runAll() {
        pending.forEach(this::run);
    }

    private void run(Task task) {
        ZooKeeper handle = connection.state().isWritable() ? connection.handle() : null;
        if (handle == null) {
            return;
        }
        CompletableFuture<Void> attempt = task.prefix == null
            ? zk.delete(handle, task.path, task.version, "delete", task.path)
            : deleteMatching(handle, task);
        attempt.whenComplete((v, e) -> {
            Throwable cause = e == null ? null : Failures.unwrap(e);
            if (cause == null || cause instanceof NoNodeException) {
                pending.remove(task);
            } else if (cause instanceof BatonException b && !Errors.isRetryable(b) && b.code() != null
                && b.code() != KeeperException.Code.SESSIONEXPIRED && b.code() != KeeperException.Code.NOTREADONLY) {
                LOG.warn("background delete of {} abandoned: {}", task, b.getMessage());
                pending.remove(task);
            }
        });
    }

    private CompletableFuture<Void> deleteMatching(ZooKeeper handle, Task task) {
        return zk.getChildren(handle, task.path, null, "getChildren", task.path).thenCompose(children -> {
            List<CompletableFuture<Void>> deletes = children.children().stream()
                .filter(name -> name.startsWith(task.prefix))
                .map(name -> Futures.nullIfNoNode(deleteIfMarked(handle, Paths.join(task.path, name), task.mark)))
                .toList();
            return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new));
        });
    }

    /** Deletes {@code path}; with a mark, only if its data carries it (another create of the session made it otherwise). */
    private CompletableFuture<Void> deleteIfMarked(ZooKeeper handle, String path, UUID mark) {
        if (mark == null) {
            return zk.delete(handle, path, -1, "delete", path);
        }
        return zk.getData(handle, path, null, "delete", path).thenCompose(node -> CreateMark.carries(node.data(), mark)
            ? zk.delete(handle, path, -1, "delete", path)
            : CompletableFuture.completedFuture(null));
    }
}

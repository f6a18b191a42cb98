package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.DeleteBuilder;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NotEmptyException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * delete: with a version, quietly, deleting children first, and guaranteed (finished in the
 * background when the connection is down). A retried delete that finds no node counts as done:
 * the earlier attempt deleted it.
 */
final class DeleteOp implements DeleteBuilder {
    private static final int MAX_TREE_PASSES = 10;

    private final NamespacedClient c;
    private int version = -1;
    private boolean quietly;
    private boolean children;
    private boolean guaranteed;
    /** The only session the delete may be sent in; 0 for any. */
    private long session;

    DeleteOp(NamespacedClient c) {
        this.c = c;
    }

    @Override
    public DeleteBuilder withVersion(int v) {
        if (v < -1) {
            throw new IllegalArgumentException("version must be -1 (any) or a node version, was " + v);
        }
        this.version = v;
        return this;
    }

    @Override
    public DeleteBuilder quietly() {
        this.quietly = true;
        return this;
    }

    @Override
    public DeleteBuilder deletingChildrenIfNeeded() {
        this.children = true;
        return this;
    }

    @Override
    public DeleteBuilder guaranteed() {
        this.guaranteed = true;
        return this;
    }

    @Override
    public DeleteBuilder inSession(long sessionId) {
        if (sessionId == 0) {
            throw new IllegalArgumentException("sessionId must be a session's id, was 0 (no session)");
        }
        this.session = sessionId;
        return this;
    }

    @Override
    public void forPath(String path) throws InterruptedException {
        String full = prepare(path);
        try {
            c.retry().call("delete", path, (zk, n) -> {
                deleteOnce(zk, full, path, n);
                return null;
            });
        } catch (BatonException e) {
            handOver(full, e);
            throw e;
        }
    }

    @Override
    public CompletableFuture<Void> forPathAsync(String path) {
        String full;
        try {
            full = prepare(path);
        } catch (BatonException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> result = c.retry().callAsync("delete", path, (zk, n) -> otherSession(zk)
            ? CompletableFuture.failedFuture(Errors.of(KeeperException.Code.SESSIONEXPIRED, "delete", path, null))
            : c.zk().delete(zk, full, version, "delete", path).exceptionallyCompose(e -> recover(zk, full, path, n, e)));
        result.whenComplete((v, e) -> {
            if (e != null && Failures.unwrap(e) instanceof BatonException b) {
                handOver(full, b);
            }
        });
        return result;
    }

    private String prepare(String path) {
        String full = c.prepare("delete", path, false);
        if (full.equals("/")) {
            throw new dev.baton.framework.InvalidPathException("delete", path, "the root node cannot be deleted");
        }
        return full;
    }

    /** Whether {@code zk} belongs to another session than the one the delete is bound to. */
    private boolean otherSession(ZooKeeper zk) {
        return session != 0 && zk.getSessionId() != session;
    }

    private void deleteOnce(ZooKeeper zk, String full, String path, int attempt) throws KeeperException, InterruptedException {
        if (otherSession(zk)) {
            throw new KeeperException.SessionExpiredException();
        }
        try {
            zk.delete(full, version);
        } catch (KeeperException.NoNodeException e) {
            if (!quietly && attempt == 0) {
                throw e;
            }
        } catch (KeeperException.NotEmptyException e) {
            if (!children) {
                throw e;
            }
            Futures.await(deleteTree(zk, full, path, 0));
        }
    }

    private CompletableFuture<Void> recover(ZooKeeper zk, String full, String path, int attempt, Throwable e) {
        Throwable cause = Failures.unwrap(e);
        if (cause instanceof NoNodeException && (quietly || attempt > 0)) {
            return CompletableFuture.completedFuture(null);
        }
        if (cause instanceof NotEmptyException && children) {
            return deleteTree(zk, full, path, 0);
        }
        return CompletableFuture.failedFuture(cause);
    }

    /** Deletes the children of {@code full} depth-first, then {@code full}; again if children appeared meanwhile. */
    private CompletableFuture<Void> deleteTree(ZooKeeper zk, String full, String path, int pass) {
        return deleteDescendants(zk, full, path)
            .thenCompose(v -> c.zk().delete(zk, full, version, "delete", path))
            .exceptionallyCompose(e -> {
                Throwable cause = Failures.unwrap(e);
                if (cause instanceof NoNodeException) {
                    return CompletableFuture.completedFuture(null);
                }
                if (cause instanceof NotEmptyException && pass < MAX_TREE_PASSES) {
                    return deleteTree(zk, full, path, pass + 1);
                }
                return CompletableFuture.failedFuture(cause);
            });
    }

    private CompletableFuture<Void> deleteDescendants(ZooKeeper zk, String full, String path) {
        return c.zk().getChildren(zk, full, null, "delete", path)
            .exceptionally(e -> {
                if (Failures.unwrap(e) instanceof NoNodeException) {
                    return new dev.baton.framework.NodeChildren(List.of(), null);
                }
                throw Failures.rethrow(e);
            })
            .thenCompose(children -> CompletableFuture.allOf(children.children().stream()
                .map(child -> {
                    String childPath = Paths.join(full, child);
                    return Futures.nullIfNoNode(deleteDescendants(zk, childPath, path)
                        .thenCompose(v -> c.zk().delete(zk, childPath, -1, "delete", path)));
                })
                .toArray(CompletableFuture[]::new)));
    }

    /**
     * A guaranteed delete that failed for want of the connection, the session or a writable server
     * (NOTREADONLY: a server cut off from its quorum) finishes in the background.
     */
    private void handOver(String full, BatonException e) {
        if (!guaranteed || e.code() == null) {
            return;
        }
        switch (e.code()) {
            case CONNECTIONLOSS, OPERATIONTIMEOUT, SESSIONMOVED, SESSIONEXPIRED, REQUESTTIMEOUT, NOTREADONLY ->
                c.core.deletes.delete(full, version);
            default -> {
                // no node, bad version, not empty, no auth: retrying cannot help
            }
        }
    }
}

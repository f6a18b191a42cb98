package dev.baton.framework;

import java.util.concurrent.CompletableFuture;

/** Deletes a node: {@code client.delete().quietly().deletingChildrenIfNeeded().forPath("/a")}. */
public interface DeleteBuilder {
    /** Only if the node is at this version (otherwise {@link BadVersionException}); -1 for any. */
    DeleteBuilder withVersion(int version);

    /** A missing node is not an error. */
    DeleteBuilder quietly();

    /** Deletes the node's descendants first (not atomic: others may add children meanwhile; retried). */
    DeleteBuilder deletingChildrenIfNeeded();

    /**
     * If the delete fails for lack of a connection, keeps trying in the background until the node
     * is gone; the call itself still reports the failure. Used to release locks reliably.
     */
    DeleteBuilder guaranteed();

    /**
     * Deletes only within session {@code sessionId} (a {@link BatonClient#sessionId()} taken
     * earlier): if the client is on another session when a request would be sent — that one
     * ended — the delete fails with {@link SessionExpiredException} instead of being made in the
     * new session. A lock's release uses it to learn whether its hold lasted until the delete: an
     * answer in the hold's session proves the node was still there.
     *
     * <p>As always, a retried attempt that finds no node counts as done: in the same session only
     * the earlier attempt (or someone deleting it explicitly) can have removed it.
     */
    DeleteBuilder inSession(long sessionId);

    void forPath(String path) throws InterruptedException;

    CompletableFuture<Void> forPathAsync(String path);
}

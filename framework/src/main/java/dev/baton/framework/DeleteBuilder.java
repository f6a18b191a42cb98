package dev.baton.framework;

import java.util.concurrent.CompletableFuture;

/** Deletes a node: {@code client.delete().quietly().deletingChildrenIfNeeded().forPath("/a")}. */
public interface DeleteBuilder {
    /**
     * Only if the node is at this version (otherwise {@link BadVersionException}); -1 for any.
     *
     * @param version the version the node must have, or -1 for any
     * @return this builder
     */
    DeleteBuilder withVersion(int version);

    /**
     * A missing node is not an error.
     *
     * @return this builder
     */
    DeleteBuilder quietly();

    /**
     * Deletes the node's descendants first (not atomic: others may add children meanwhile; retried).
     *
     * @return this builder
     */
    DeleteBuilder deletingChildrenIfNeeded();

    /**
     * If the delete fails for lack of a connection, a session or a writable server (NOTREADONLY
     * from a server cut off from its quorum), keeps trying in the background — on a writable server
     * only — until the node is gone; the call itself still reports the failure. Used to release
     * locks reliably.
     *
     * @return this builder
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
     *
     * @param sessionId the session the delete must be sent in (not 0)
     * @return this builder
     */
    DeleteBuilder inSession(long sessionId);

    /**
     * Deletes the node at {@code path}.
     *
     * @param path the node's path
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    void forPath(String path) throws InterruptedException;

    /**
     * {@link #forPath(String)} without blocking a thread.
     *
     * @param path the node's path
     * @return completes when the node is deleted, or with the failure
     */
    CompletableFuture<Void> forPathAsync(String path);
}

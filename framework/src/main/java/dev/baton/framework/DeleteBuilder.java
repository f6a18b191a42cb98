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
     * If the delete fails for lack of a connection, keeps trying in the background until the node
     * is gone; the call itself still reports the failure. Used to release locks reliably.
     *
     * @return this builder
     */
    DeleteBuilder guaranteed();

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

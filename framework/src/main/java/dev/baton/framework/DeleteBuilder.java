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

    void forPath(String path) throws InterruptedException;

    CompletableFuture<Void> forPathAsync(String path);
}

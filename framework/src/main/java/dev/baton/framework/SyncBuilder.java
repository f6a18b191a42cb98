package dev.baton.framework;

import java.util.concurrent.CompletableFuture;

/**
 * Makes the server this client talks to catch up with the leader, so that a read after it sees
 * every write committed before it began.
 */
public interface SyncBuilder {
    /**
     * Waits until the connected server has caught up with the leader, so that a read after it sees every
     * write committed before it.
     *
     * @param path the path whose view to bring up to date
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    void forPath(String path) throws InterruptedException;

    /**
     * {@link #forPath(String)} without blocking a thread.
     *
     * @param path the path whose view to bring up to date
     * @return completes when the server has caught up, or with the failure
     */
    CompletableFuture<Void> forPathAsync(String path);
}

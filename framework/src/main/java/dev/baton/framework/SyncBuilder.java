package dev.baton.framework;

import java.util.concurrent.CompletableFuture;

/**
 * Makes the server this client talks to catch up with the leader, so that a read after it sees
 * every write committed before it began.
 */
public interface SyncBuilder {
    void forPath(String path) throws InterruptedException;

    CompletableFuture<Void> forPathAsync(String path);
}

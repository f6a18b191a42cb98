package dev.baton.framework.internal;

import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.ZooKeeper;

/** Where the retry loop gets a connected ZooKeeper handle for each attempt. */
public interface HandleSource {
    /**
     * The current handle once it is connected, waiting up to the connection timeout.
     *
     * @throws dev.baton.framework.NoConnectionException if no connection comes within the connection timeout
     * @throws dev.baton.framework.ClientClosedException if the client is closed
     */
    ZooKeeper awaitConnected(String operation, String path) throws InterruptedException;

    /** Completes with the connected handle, or fails as {@link #awaitConnected} would; never on ZooKeeper's thread. */
    CompletableFuture<ZooKeeper> whenConnected(String operation, String path);

    /**
     * A request sent at {@code sentNanos} was answered: the session was alive then (on the quorum,
     * unless the answer came from a read-only server, which the source does not count).
     */
    void contacted(long sentNanos);
}

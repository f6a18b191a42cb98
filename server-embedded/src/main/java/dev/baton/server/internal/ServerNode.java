package dev.baton.server.internal;

import dev.baton.server.ServerRole;
import java.io.IOException;

/** One ZooKeeper server that an ensemble starts and stops. */
public interface ServerNode {
    NodeSpec spec();

    /**
     * Starts the server and returns once its client port accepts connections; joining the quorum
     * and syncing with the leader continue in the background (see {@link #role()}).
     */
    void start() throws IOException;

    /** Stops the server and returns once its threads have ended and its ports are free. */
    void stop();

    /** What the server is doing now. */
    ServerRole role();
}

package dev.baton.test;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import java.time.Duration;
import java.util.Objects;
import org.apache.zookeeper.Testable;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Makes a client hear that its session came back on a read-only server: a server cut off from its
 * quorum (started with {@code readonlymode.enabled}) that answers reads only.
 *
 * <p>Why it is staged: a ZooKeeper 3.9 server in read-only mode refuses a session the quorum
 * created ("Refusing global session reconnection in RO mode"), and every session that holds a
 * lock or leads is such a session (its nodes are ephemeral). So the embedded ensemble, which runs
 * 3.9, can put a holder's client on a read-only server only with a new session, after the old one
 * is lost. Older servers (3.5, for one) take the old session back in read-only mode, and the
 * client then reports {@code ConnectedReadOnly} for the very session that holds. This stages what
 * the client's handle reports then: it queues the events on the handle through ZooKeeper's own
 * test hook ({@code Testable.queueEvent}), so they reach the client on the handle's event thread,
 * in order with its real events, exactly as the handle's own would.
 *
 * <p>The client's real link stays up (to a read-only server it would be up, too), so the handle
 * sends nothing of its own in between: the client hears Disconnected, as it always does before a
 * read-only server answers, then ConnectedReadOnly on the same session, and stays READ_ONLY until
 * it gives the session up itself. Writes would still reach the real server; tests of this state
 * watch what the client reports, not what the servers do.
 *
 * <pre>{@code
 * ReadOnlyServer.loseQuorum(client, Duration.ofSeconds(10));   // client READ_ONLY, same session
 * }</pre>
 */
public final class ReadOnlyServer {
    private ReadOnlyServer() {
    }

    /**
     * Tells {@code client}'s current handle that its server lost the quorum (Disconnected) and
     * took the session back read-only (ConnectedReadOnly), and waits until the client reports
     * READ_ONLY.
     *
     * @param client a started client, connected to a writable server; its session and its real
     *     connection are left as they are
     * @param timeout how long the client may take to report READ_ONLY
     * @throws IllegalStateException if the client is not connected to a writable server
     *     (CONNECTED or RECONNECTED), or does not report READ_ONLY within {@code timeout}
     */
    public static void loseQuorum(BatonClient client, Duration timeout) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(timeout, "timeout");
        ConnectionState now = client.connectionState();
        if (now != ConnectionState.CONNECTED && now != ConnectionState.RECONNECTED) {
            throw new IllegalStateException("a server loses its quorum under a client connected to it: the client must be"
                + " CONNECTED or RECONNECTED, but it is " + now);
        }
        Testable handle = client.zookeeper().getTestable();
        handle.queueEvent(new WatchedEvent(Watcher.Event.EventType.None, Watcher.Event.KeeperState.Disconnected, null));
        handle.queueEvent(new WatchedEvent(Watcher.Event.EventType.None, Watcher.Event.KeeperState.ConnectedReadOnly, null));
        try {
            Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(10))
                .until(() -> client.connectionState() == ConnectionState.READ_ONLY);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the client did not report READ_ONLY within " + timeout + "; it is "
                + client.connectionState(), e);
        }
    }
}

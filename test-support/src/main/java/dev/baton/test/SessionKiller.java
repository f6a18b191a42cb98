package dev.baton.test;

import dev.baton.framework.BatonClient;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.StaticHostProvider;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Makes the ensemble end a client's session for real, so the client receives
 * {@code SESSION_EXPIRED} and its ephemeral nodes are deleted.
 *
 * <p>How: a second handle attaches to the same session (same id and password) directly on the
 * ensemble and closes it. The servers commit a close-session transaction exactly as they do when a
 * session times out: every ephemeral node of the session is deleted, watches fire, and the
 * server that holds the victim's connection drops it. When the victim reconnects, the servers
 * answer that its session has expired. This works whatever the victim is doing (even if its own
 * connection is cut by a {@link ChaosProxy}), and takes about one round trip instead of a whole
 * session timeout.
 */
public final class SessionKiller {
    private SessionKiller() {
    }

    /**
     * Ends {@code victim}'s session on the ensemble reached by {@code connectString} and returns
     * once the servers have committed its end.
     *
     * @param victim the handle whose session to end
     * @param connectString the ensemble's connect string (directly, not through a cut proxy)
     * @param timeout how long to wait at most
     * @throws IllegalStateException if {@code victim} is closed (by {@code close()}, or because it
     *     already heard its session expire): its session is over, and ending it again would provoke
     *     nothing; or if the ensemble cannot be reached within {@code timeout}
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public static void expire(ZooKeeper victim, String connectString, Duration timeout) throws InterruptedException {
        Objects.requireNonNull(victim, "victim");
        if (!victim.getState().isAlive()) {
            // the servers answer "expired" for a closed session too, so without this the call would seem to work
            throw new IllegalStateException("the handle is closed: session 0x" + Long.toHexString(victim.getSessionId())
                + " is already over, there is nothing to expire");
        }
        expire(victim.getSessionId(), victim.getSessionPasswd(), connectString, timeout);
    }

    /**
     * Ends {@code client}'s current session on the ensemble at {@code connectString}. The client
     * then reports LOST and builds a new session by itself.
     *
     * <p>A client between sessions — it has just lost one and its new one is not established
     * yet, or it has never connected — has no session to end yet: this waits (up to
     * {@code timeout}) until it has one, and ends that. (A client that has not yet heard that its
     * session ended still reports that session; ending it again changes nothing.)
     *
     * @param client the client whose current session to end
     * @param connectString the ensemble's connect string (directly, not through a cut proxy)
     * @param timeout how long to wait at most, for a session and for its end
     * @throws IllegalStateException if the client has no session within {@code timeout}, or the
     *     ensemble cannot be reached within it
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public static void expire(BatonClient client, String connectString, Duration timeout) throws InterruptedException {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(timeout, "timeout");
        ZooKeeper handle = client.zookeeper();
        if (handle.getSessionId() == 0) {
            if (!client.blockUntilConnected(timeout)) {
                throw new IllegalStateException("the client has no session to expire: it has been connecting for " + timeout
                    + " without one");
            }
            handle = client.zookeeper();
        }
        // not expire(handle, ...): a handle that has heard its session expire is closed until the client replaces it,
        // and ending that session again is harmless (see above)
        expire(handle.getSessionId(), handle.getSessionPasswd(), connectString, timeout);
    }

    /**
     * Ends the session {@code sessionId} (with its password) on the ensemble at {@code connectString}.
     *
     * @param sessionId the session's id
     * @param password the session's password
     * @param connectString the ensemble's connect string (directly, not through a cut proxy)
     * @param timeout how long to wait at most
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public static void expire(long sessionId, byte[] password, String connectString, Duration timeout)
        throws InterruptedException {
        Objects.requireNonNull(connectString, "connectString");
        Objects.requireNonNull(timeout, "timeout");
        if (sessionId == 0) {
            throw new IllegalArgumentException("the client has no session yet (session id 0)");
        }
        CountDownLatch attached = new CountDownLatch(1);
        Watcher watcher = event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected
                || event.getState() == Watcher.Event.KeeperState.Expired) {
                attached.countDown();
            }
        };
        ZooKeeper killer;
        try {
            // a secure ensemble serves TLS only: attach the way the test's clients connect
            Optional<ZKClientConfig> tls = TestSecurity.zkClientConfig(TestSecurity.IDENTITY);
            killer = tls.isPresent()
                ? new ZooKeeper(connectString, (int) timeout.toMillis(), watcher, sessionId, password, false,
                    new StaticHostProvider(new ConnectStringParser(connectString).getServerAddresses()), tls.get())
                : new ZooKeeper(connectString, (int) timeout.toMillis(), watcher, sessionId, password);
        } catch (IOException e) {
            throw new IllegalStateException("cannot connect to " + connectString + ": " + e.getMessage(), e);
        }
        try {
            if (!attached.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("could not reach " + connectString + " within " + timeout
                    + " to expire session 0x" + Long.toHexString(sessionId));
            }
        } finally {
            // close() sends closeSession and waits for the servers to commit it
            killer.close((int) timeout.toMillis());
        }
    }
}

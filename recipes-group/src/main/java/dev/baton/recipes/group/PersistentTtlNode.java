package dev.baton.recipes.group;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientClosingListener;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.ZPaths;
import dev.baton.framework.ZooKeeperException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node that outlives this client by a bounded time: it exists while the client keeps touching
 * it, and for about {@code ttl} after the touching stops — whether the process closed it, crashed
 * or lost its session. Curator's {@code PersistentTtlNode}, same layout: for membership that must
 * survive a restart or a short partition but not a dead process.
 *
 * <p>Layout and algorithm: the node at {@code path} is a container carrying the data, kept in
 * existence by a {@link PersistentNode}; under it a TTL child ({@code touch} by default) is
 * created or written every {@code ttl / 2}. While the child is touched it never expires; once
 * touching stops, the servers delete the child after {@code ttl} without a write, and then the
 * container, now empty.
 *
 * <p>Guarantees and caveats: the node lasts from the last touch for at least {@code ttl} and at
 * most {@code ttl} plus two runs of the servers' container reaper ({@code znode.container.checkIntervalMs},
 * 60 s by default in ZooKeeper, 1 s in Baton's embedded ensemble). Touches need no session, so a
 * session expiry does not end the node. TTL nodes must be enabled on every server
 * ({@code -Dzookeeper.extendedTypesEnabled=true}); where they are not, {@link #waitForInitialCreate}
 * throws {@link TtlNodesDisabledException}, which says so. {@link #close()} stops the touching and
 * leaves the node to its TTL.
 *
 * <pre>{@code
 * PersistentTtlNode worker = new PersistentTtlNode(client, "/workers/w-17", Duration.ofMinutes(2), info);
 * worker.start();
 * worker.waitForInitialCreate(Duration.ofSeconds(10));   // throws TtlNodesDisabledException if the servers refuse
 * ...
 * worker.close();   // the node stays about two minutes more
 * }</pre>
 */
public final class PersistentTtlNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PersistentTtlNode.class);
    /** The touched child's default name (Curator's). */
    public static final String DEFAULT_CHILD_NAME = "touch";
    private static final byte[] EMPTY = new byte[0];
    private static final Duration SHORTEST_TOUCH_PERIOD = Duration.ofMillis(10);

    private enum State { LATENT, STARTED, CLOSED }

    private final BatonClient client;
    private final PersistentNode node;
    private final String path;
    private final String childPath;
    private final Duration ttl;
    private final Duration touchPeriod;
    private final CompletableFuture<Void> firstTouch = new CompletableFuture<>();
    /** The first touch at once, on each creation: the TTL runs from the creation. Added once, by start(). */
    private final PersistentNodeListener toucher = created -> touch(false);
    private volatile State state = State.LATENT;

    /**
     * A node at {@code path} with {@code data}, lasting {@code ttl} after the last touch.
     *
     * @param client the client the node is created and touched through
     * @param path the node's path
     * @param ttl how long the node lasts after the last touch; positive
     * @param data the node's data (copied)
     */
    public PersistentTtlNode(BatonClient client, String path, Duration ttl, byte[] data) {
        this(client, path, ttl, data, DEFAULT_CHILD_NAME);
    }

    /**
     * A node at {@code path} with {@code data}, lasting {@code ttl} after the last touch, whose
     * touched child is named {@code childName}.
     *
     * @param client the client the node is created and touched through
     * @param path the node's path
     * @param ttl how long the node lasts after the last touch; positive
     * @param data the node's data (copied)
     * @param childName the touched child's name: one path segment
     * @throws IllegalArgumentException for a ttl that is not positive or a child name that is not one segment
     */
    public PersistentTtlNode(BatonClient client, String path, Duration ttl, byte[] data, String childName) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = ZPaths.validate("PersistentTtlNode", Objects.requireNonNull(path, "path"));
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, was " + ttl);
        }
        Objects.requireNonNull(childName, "childName");
        if (childName.isEmpty() || childName.contains("/")) {
            throw new IllegalArgumentException("childName must be one path segment, was '" + childName + "'");
        }
        this.ttl = ttl;
        Duration half = ttl.dividedBy(2);
        this.touchPeriod = half.compareTo(SHORTEST_TOUCH_PERIOD) < 0 ? SHORTEST_TOUCH_PERIOD : half;
        this.childPath = ZPaths.validate("PersistentTtlNode", ZPaths.join(this.path, childName));
        this.node = new PersistentNode(client, CreateMode.CONTAINER, false, this.path, data, false);
    }

    /**
     * Starts creating the node and touching it, in the background. A start the client refuses
     * (never started, or closed) leaves nothing started: the same node starts once the client has.
     *
     * @throws IllegalStateException if it was started before, or closed (a closed node cannot start
     *     again: make a new one)
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws dev.baton.framework.ClientClosedException if the client is closed
     */
    public void start() {
        if (!client.isClosed()) {   // a closed client is refused below, as before
            // the node would wait for a connection that a client never started never makes
            client.requireStarted("start PersistentTtlNode", path);
        }
        synchronized (this) {
            switch (state) {
                case LATENT -> state = State.STARTED;
                case STARTED -> throw new IllegalStateException("PersistentTtlNode " + path + " was already started");
                case CLOSED -> throw new IllegalStateException("PersistentTtlNode " + path
                    + " is closed: a closed node cannot start again, make a new one");
            }
        }
        node.addListener(toucher);
        try {
            node.start();
        } catch (RuntimeException e) {
            // refused (a closed client): leave nothing behind, so that a second start says the same, not "already started"
            node.removeListener(toucher);
            synchronized (this) {
                if (state == State.STARTED) {
                    state = State.LATENT;
                }
            }
            throw e;
        }
        schedule();
    }

    /**
     * Waits until the node exists and has been touched once.
     *
     * @param timeout how long to wait at most
     * @return true once the node exists and was touched, false if {@code timeout} passed first
     * @throws InterruptedException if the waiting thread is interrupted
     * @throws TtlNodesDisabledException if the servers refuse TTL nodes
     * @throws dev.baton.framework.DataTooLargeException if the data is larger than the servers take in one request
     * @throws dev.baton.framework.NoChildrenForEphemeralsException if an ancestor of the node is an ephemeral node (named in the message)
     * @throws IllegalStateException if not started yet (call {@link #start()} first)
     * @throws dev.baton.framework.ClientClosedException if the client is closed (before or while it waits) before the
     *     node was created and touched once
     */
    public boolean waitForInitialCreate(Duration timeout) throws InterruptedException {
        Deadline deadline = Deadline.afterNonNegative(timeout, client.ticker());
        if (!node.waitForInitialCreate(timeout)) {   // throws for data the servers refuse, where the touch would wait forever
            return false;
        }
        // a closed client touches nothing more (a touch it cut off, or one left to the next period, never lands): its close
        // ends this wait; one listener per wait, as removing a listener removes every registration of it
        ClientClosingListener closing = () -> firstTouch.completeExceptionally(
            new ClientClosedException("wait for the first touch of PersistentTtlNode", path));
        client.addConnectionStateListener(closing);
        try {
            if (client.isClosed()) {
                closing.clientClosing(); // closed before the listener was there to hear it
            }
            firstTouch.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw Failures.rethrow(e.getCause());
        } finally {
            client.removeConnectionStateListener(closing);
        }
    }

    /**
     * Gives the node new data; see {@link PersistentNode#setData}.
     *
     * @param data the new data (copied)
     * @throws InterruptedException if the calling thread is interrupted while the data is written (it is kept all the same)
     */
    public void setData(byte[] data) throws InterruptedException {
        node.setData(data);
    }

    /**
     * The data the node is kept with.
     *
     * @return a copy of the latest data
     */
    public byte[] getData() {
        return node.getData();
    }

    /**
     * The node's path.
     *
     * @return the path given to the constructor
     */
    public String path() {
        return path;
    }

    /**
     * How long the node lasts after the last touch.
     *
     * @return the TTL
     */
    public Duration ttl() {
        return ttl;
    }

    /** Stops touching; the node stays until its TTL runs out. */
    @Override
    public void close() {
        synchronized (this) {
            state = State.CLOSED;
        }
        node.close();
    }

    private void schedule() {
        if (state != State.CLOSED && !client.isClosed()) {
            CompletableFuture.delayedExecutor(touchPeriod.toNanos(), TimeUnit.NANOSECONDS, client.asyncExecutor())
                .execute(() -> touch(true));
        }
    }

    /** Writes the child, creating it as a TTL node if it is missing; {@code periodic} touches schedule the next. */
    private void touch(boolean periodic) {
        if (state == State.CLOSED) {
            return;
        }
        client.setData().forPathAsync(childPath, EMPTY).<Void>thenApply(stat -> null)
            .exceptionallyCompose(e -> Failures.unwrap(e) instanceof NoNodeException
                ? client.create().withMode(CreateMode.PERSISTENT_WITH_TTL).withTtl(ttl).orSetData()
                    .forPathAsync(childPath, EMPTY).thenApply(created -> null)
                : CompletableFuture.failedFuture(Failures.unwrap(e)))
            .whenComplete((v, e) -> {
                Throwable cause = e == null ? null : Failures.unwrap(e);
                if (cause == null) {
                    firstTouch.complete(null);
                } else if (cause instanceof ZooKeeperException z && z.code() == KeeperException.Code.UNIMPLEMENTED) {
                    TtlNodesDisabledException refused = new TtlNodesDisabledException(childPath, cause);
                    if (firstTouch.completeExceptionally(refused)) {
                        LOG.error("{}", refused.getMessage());
                    }
                } else if (!(cause instanceof NoNodeException)) {
                    // the container is being made again (NoNode) or the ensemble is out of reach: the next touch tries again
                    LOG.debug("PersistentTtlNode {}: touch failed: {}", path, cause.toString());
                }
                if (periodic) {
                    schedule();
                }
            });
    }

    @Override
    public String toString() {
        return "PersistentTtlNode[" + path + ", ttl " + ttl + "]";
    }
}

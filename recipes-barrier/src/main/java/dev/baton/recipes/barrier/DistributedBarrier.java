package dev.baton.recipes.barrier;

import dev.baton.framework.AsyncConditionWait;
import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.Deadline;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A gate processes wait at until someone opens it: the barrier is closed while its node exists.
 *
 * <p>Algorithm: {@link #setBarrier()} creates the node, {@link #removeBarrier()} deletes it, and
 * waiters watch it and return when a fresh read says it is gone.
 *
 * <p>Guarantees and caveats: a waiter returns only after it has read that the node does not
 * exist — never on a watch event alone, so spurious wake-ups cannot let it through early. A
 * waiter keeps waiting correctly across reconnects and session expiry (it reads again when the
 * client reconnects). A barrier set again right after removal may be missed by a slow waiter that
 * never saw the gap: waiters are told "it was open at some point after you started waiting".
 *
 * <pre>{@code
 * DistributedBarrier barrier = new DistributedBarrier(client, "/deploy/gate");
 * barrier.setBarrier();                  // coordinator
 * barrier.waitOnBarrier();               // workers, until the coordinator calls removeBarrier()
 * barrier.waitOnBarrierAsync().thenRun(this::deploy);   // or without a thread parked
 * }</pre>
 */
public final class DistributedBarrier {
    private final BatonClient client;
    private final String path;

    /**
     * A barrier whose node is {@code path}: closed while the node exists.
     *
     * @param client the client to read and write the barrier's node with
     * @param path the barrier's node, such as {@code /deploy/gate}
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid path for a recipe
     */
    public DistributedBarrier(BatonClient client, String path) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = ZPaths.validateRecipePath("DistributedBarrier", path);
    }

    /**
     * Closes the gate (creates the node, and its parents). Closing a closed gate is fine.
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public void setBarrier() throws InterruptedException {
        try {
            client.create().creatingParentContainersIfNeeded().forPath(path);
        } catch (NodeExistsException alreadySet) {
            // already closed
        }
    }

    /**
     * Opens the gate (deletes the node); waiters pass. Opening an open gate is fine.
     *
     * @throws dev.baton.framework.NotEmptyException if other nodes live under the gate's path (another
     *     recipe's): such a gate cannot open; give a gate a path of its own
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public void removeBarrier() throws InterruptedException {
        client.delete().quietly().forPath(path);
    }

    /**
     * Waits until the gate is open.
     *
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void waitOnBarrier() throws InterruptedException {
        ObservedWait.run(client, "barrier", path, () -> ChangeSignal.awaitCondition(client, gone(), Deadline.none()));
    }

    /**
     * Waits up to {@code timeout} for the gate to open; returns whether it did.
     *
     * @param timeout how long to wait at most
     * @return whether the gate is open
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean waitOnBarrier(Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        Deadline deadline = Deadline.afterNonNegative(timeout, client.ticker());
        return ObservedWait.run(client, "barrier", path, () -> ChangeSignal.awaitCondition(client, gone(), deadline));
    }

    /**
     * Waits, with no thread parked, until the gate is open: the future completes with true then (on
     * the client's async executor). It fails with {@link dev.baton.framework.ClientClosedException} if
     * the client closes first, and with the look's own {@link dev.baton.framework.BatonException} for
     * a failure that is not connection trouble (a connection lost or a session expired only waits
     * for the next connection, as the blocking form does). Cancelling it stops the wait; nothing of
     * it is left but a one-shot watch on the gate's node, which wakes nothing.
     *
     * @return completes with true once the gate is open
     */
    public CompletableFuture<Boolean> waitOnBarrierAsync() {
        return waitAsync(Deadline.none());
    }

    /**
     * {@link #waitOnBarrierAsync()} for at most {@code timeout}: the future completes with false if
     * the gate is still closed then. {@link Duration#ZERO} looks once.
     *
     * @param timeout how long to wait at most
     * @return completes with whether the gate opened in time
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public CompletableFuture<Boolean> waitOnBarrierAsync(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        return waitAsync(Deadline.afterNonNegative(timeout, client.ticker()));
    }

    private CompletableFuture<Boolean> waitAsync(Deadline deadline) {
        return ObservedWait.async(client, "barrier", path, () -> AsyncConditionWait.start(client, deadline,
            () -> new ClientClosedException("waitOnBarrier", path),
            watcher -> client.checkExists().usingWatcher(watcher).forPathAsync(path).thenApply(stat -> stat == null)));
    }

    /** The barrier node is gone (the look leaves the watcher on it). */
    private ChangeSignal.Check gone() {
        return watcher -> client.checkExists().usingWatcher(watcher).forPath(path) == null;
    }
}

package dev.baton.framework;

import dev.baton.framework.internal.ClientTimer;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.zookeeper.Watcher;

/**
 * {@link ChangeSignal#awaitCondition}'s asynchronous form: a wait until a condition holds, with no
 * thread parked. It is what a recipe's {@code ...Async} wait is made of (the gate's, the count-down
 * latch's, the leader latch's), written once.
 *
 * <p>Algorithm: each look is the recipe's {@link Look}, asynchronous, leaving a one-shot watcher on
 * what it read. A change of a watched node, a (re)connection (a session expiry drops every watch)
 * or, for a recipe that waits on its own state, a {@link ChangeSignal#bump()} of the signal given,
 * looks again. Of the watches, only those of the latest look that set them (or of a look still on its
 * way) look again: ZooKeeper hands every watcher each connection event (the reconnection's own look
 * covers those) and keeps an earlier look's watch beside the new one across a reconnection, so each
 * watcher looking again multiplied the looks at every reconnection.
 *
 * <p>Guarantees and caveats: the future completes with true once a look holds, with false at the
 * deadline ({@link Deadline#none()}: never; a deadline already passed looks once), with the look's
 * failure when that is not {@linkplain Failures#isConnectionTrouble connection trouble} (which only
 * waits for the next connection, as the blocking wait does), and with the recipe's closed failure
 * when the client closes, on the closing thread — also when it closes while the wait starts. A first
 * look that holds at once completes it on the caller's thread; later looks and the deadline, on the
 * client's async executor. However it ends (cancelled too), the wait takes back
 * its listeners and its deadline timer at once; a one-shot watch already set stays on the server
 * until its node changes, and then wakes nothing.
 *
 * <pre>{@code
 * CompletableFuture<Boolean> open = AsyncConditionWait.start(client, Deadline.after(timeout),
 *     () -> new ClientClosedException("waitOnBarrier", path),
 *     watcher -> client.checkExists().usingWatcher(watcher).forPathAsync(path).thenApply(stat -> stat == null));
 * }</pre>
 */
public final class AsyncConditionWait implements ClientClosingListener {
    /** One asynchronous look at the condition. */
    @FunctionalInterface
    public interface Look {
        /**
         * Looks once.
         *
         * @param watcher the watcher to leave on every node read
         * @return completes with whether the wait is over, or with the look's failure
         */
        CompletableFuture<Boolean> look(Watcher watcher);
    }

    private final BatonClient client;
    private final Deadline deadline;
    private final Supplier<? extends RuntimeException> closed;
    private final Look check;
    private final CompletableFuture<Boolean> result = new CompletableFuture<>();
    /** Looks started: the number of the latest. */
    private final AtomicLong looks = new AtomicLong();
    /** The number of the latest look whose reply set a watch: an earlier look's watch no longer looks again. */
    private final AtomicLong watched = new AtomicLong();
    /** A bump of the recipe's signal looks again (on the async executor: the bump may come under the recipe's lock). */
    private final Runnable onSignal = this::lookLater;

    private AsyncConditionWait(BatonClient client, Deadline deadline, Supplier<? extends RuntimeException> closed, Look check) {
        this.client = Objects.requireNonNull(client, "client");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.closed = Objects.requireNonNull(closed, "closed");
        this.check = Objects.requireNonNull(check, "look");
    }

    /**
     * Starts a wait that looks again on watch events and (re)connections.
     *
     * @param client the client the look reads through
     * @param deadline until when
     * @param closed what the future fails with when the client is closed (the recipe's closed exception)
     * @param look one look
     * @return completes with true once a look holds, false at the deadline
     */
    public static CompletableFuture<Boolean> start(BatonClient client, Deadline deadline,
                                                   Supplier<? extends RuntimeException> closed, Look look) {
        return new AsyncConditionWait(client, deadline, closed, look).begin(null);
    }

    /**
     * As {@link #start(BatonClient, Deadline, Supplier, Look)}, also looking again at every
     * {@link ChangeSignal#bump()} of {@code signal}: for a condition on a recipe's own state.
     *
     * @param client the client the look reads through
     * @param deadline until when
     * @param closed what the future fails with when the client is closed
     * @param signal the recipe's signal, bumped when its state changes
     * @param look one look
     * @return completes with true once a look holds, false at the deadline
     */
    public static CompletableFuture<Boolean> start(BatonClient client, Deadline deadline,
                                                   Supplier<? extends RuntimeException> closed, ChangeSignal signal, Look look) {
        Objects.requireNonNull(signal, "signal");
        return new AsyncConditionWait(client, deadline, closed, look).begin(signal);
    }

    private CompletableFuture<Boolean> begin(ChangeSignal signal) {
        if (client.isClosed()) {
            result.completeExceptionally(closed.get());
            return result;
        }
        if (signal != null) {
            signal.addListener(onSignal);
            result.whenComplete((passed, e) -> signal.removeListener(onSignal));
        }
        client.addConnectionStateListener(this);
        result.whenComplete((passed, e) -> client.removeConnectionStateListener(this));
        // a close before the listener was added told it nothing: the client turns closed before it tells its listeners
        if (client.isClosed()) {
            clientClosing();
            return result;
        }
        if (!deadline.isNone() && !deadline.hasPassed()) {
            Future<?> timer = ClientTimer.schedule(client, deadline.remainingNanos(), () -> result.complete(false));
            // an ended wait takes its timer back: else the timer keeps it (and what it captured) until the deadline
            result.whenComplete((passed, e) -> timer.cancel(false));
        }
        look();
        return result;
    }

    /**
     * Looks again on the async executor: a look that answers at once (a recipe's own state) completes the
     * future there, not on the event executor or under the lock of whoever woke it.
     */
    private void lookLater() {
        if (result.isDone()) {
            return;
        }
        try {
            client.asyncExecutor().execute(this::look);
        } catch (RejectedExecutionException closing) {
            // the client closed: its closing listener (this) fails the wait
        }
    }

    private void look() {
        if (result.isDone()) {
            return;
        }
        long number = looks.incrementAndGet();
        Watcher watcher = event -> {
            if (event.getType() != Watcher.Event.EventType.None && number >= watched.get()) {
                lookLater();
            }
        };
        CompletableFuture<Boolean> looked;
        try {
            looked = check.look(watcher);
        } catch (RuntimeException e) {
            looked = CompletableFuture.failedFuture(e);
        }
        looked.whenComplete((holds, e) -> {
            if (e == null) {
                watched.accumulateAndGet(number, Math::max);
                if (holds) {
                    result.complete(true);
                } else if (deadline.hasPassed()) {
                    result.complete(false); // a deadline already passed looks once
                }
                return;
            }
            Throwable cause = Failures.unwrap(e);
            if (!Failures.isConnectionTrouble(cause)) {
                result.completeExceptionally(cause);
            } else if (deadline.hasPassed()) {
                result.complete(false); // no timer of its own ends a zero timeout, as the blocking wait does
            }
            // connection trouble: the reconnection looks again
        });
    }

    /** {@inheritDoc} A (re)connection looks again: a session expiry dropped the watches. */
    @Override
    public void stateChanged(BatonClient changed, ConnectionState newState) {
        if (newState.isConnected()) {
            lookLater();
        }
    }

    /** {@inheritDoc} No watch event or reconnection will come: the wait fails with the recipe's closed failure. */
    @Override
    public void clientClosing() {
        result.completeExceptionally(closed.get());
    }
}

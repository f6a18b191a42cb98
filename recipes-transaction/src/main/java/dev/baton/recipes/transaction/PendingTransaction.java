package dev.baton.recipes.transaction;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientClosingListener;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.Timeouts;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A transaction this process started, until its decision is read.
 *
 * <p>It looks at the decision node with one exists check that leaves a one-shot watch, and reads
 * the node when it is there or when the watch fires: two requests a transaction, where a cache of
 * the node cost five (a persistent watch to add and remove, a sync, two reads). The watch is a
 * shortcut, not what the outcome depends on: the coordinator looks again after every
 * (re)connection (a session expiry drops every watch), and when the deadline passes here with no
 * decision read it reads the votes afresh and records what {@link Tally} says (commit if every
 * vote is in by then, else abort), then reads the decision back, a second later again until it
 * has one or finds the transaction gone. Either way {@link #decision()} completes only with what
 * the decision node holds. Once it has, the coordinator acknowledges (so the nodes can be cleaned
 * up once the participants have too).
 *
 * <p>When the coordinator stops waiting — the decision read, the transaction found gone, the
 * coordinator closed — a watch of its own that may still be on the decision node is removed
 * ({@code removeAllWatches} of the one-shot kind at that path, so a one-shot watch set there through
 * the same client goes too). A watch that fired is gone already, so the usual ways — the decision
 * learned from the watch, or recorded here at the deadline — send nothing more; an exists watch on
 * a node that never comes (the transaction deleted, or the coordinator closed before anyone
 * decided) would otherwise stay on the client and the server for the rest of the session, one per
 * such transaction.
 */
public final class PendingTransaction {
    private static final Logger LOG = LoggerFactory.getLogger(PendingTransaction.class);
    /** How soon a step that failed for want of a connection is looked at again. */
    static final Duration AGAIN = Duration.ofSeconds(1);

    private final BatonClient client;
    private final String path;
    private final Transaction transaction;
    /** The folder as the coordinator was given it: what the observer is told. */
    private final String folder;
    private final long startedNanos;
    private final long deadlineNanos;
    private final Consumer<PendingTransaction> onDone;
    private final String decisionPath;
    /** Any event on the decision node (it is created once, deleted only with the transaction): read it. */
    private final Watcher decisionWatch = this::decisionChanged;
    /** The session whose watch on the decision is set (0: none yet). */
    private volatile long watchedSession;
    /**
     * A session expiry drops every watch: look again on each connection of a new session until
     * decided. Not on a reconnection of the same session: ZooKeeper sets its watches again itself
     * (and fires one for a decision made meanwhile), and another look would add another watcher —
     * each a read of the decision when it comes.
     */
    private final ClientClosingListener reconnects = new ClientClosingListener() {
        @Override
        public void stateChanged(BatonClient c, ConnectionState state) {
            if (state.isConnected() && c.sessionId() != watchedSession) {
                look();
            }
        }

        /** A closed client reads no decision any more: the wait for it ends now, not at the caller's timeout. */
        @Override
        public void clientClosing() {
            clientClosed();
        }
    };
    private final CompletableFuture<Decision> decision = new CompletableFuture<>();
    /** Claimed once, by the decision read (which then reports and hands it over) or by the client's close. */
    private final AtomicBoolean reported = new AtomicBoolean();
    private final AtomicBoolean finished = new AtomicBoolean();
    /**
     * Completes once this coordinator's part is over: its acknowledgement, and the clean-up after it, were tried
     * (or the transaction was found gone). {@link TransactionCoordinator#close()} waits for it, so closing the client
     * right after does not cut them off.
     */
    private final CompletableFuture<Void> settled = new CompletableFuture<>();
    /**
     * Looks sent since the watch last fired (guarded by watchLock): each may have left a watch that is
     * still there. A firing takes every one-shot watch of the path on the client, so it starts the
     * count again; a look that reached the server after the node was created left a data watch
     * instead, which {@link #foundNode} keeps.
     */
    private int looksSinceFired;
    private final Object watchLock = new Object();
    /** A look found the node, so left a data watch that only the node's deletion fires (guarded by watchLock). */
    private boolean foundNode;

    PendingTransaction(BatonClient client, String folder, String path, Transaction transaction, long startedNanos,
                       Consumer<PendingTransaction> onDone) {
        this.client = client;
        this.folder = folder;
        this.path = path;
        this.transaction = transaction;
        this.startedNanos = startedNanos;
        this.deadlineNanos = startedNanos + Timeouts.nanos(transaction.deadline());
        this.onDone = onDone;
        this.decisionPath = Layout.decision(path);
    }

    /**
     * The transaction's id.
     *
     * @return its node's name
     */
    public String id() {
        return transaction.id();
    }

    /**
     * The transaction node's path.
     *
     * @return the full path
     */
    public String path() {
        return path;
    }

    /**
     * What was started.
     *
     * @return the transaction as its participants are handed it
     */
    public Transaction transaction() {
        return transaction;
    }

    /**
     * Completes with the decision as read from the decision node; fails with
     * {@link TransactionException} if the coordinator was closed first, or if the transaction's
     * nodes were removed (retention, an operator) before the decision could be read, and with
     * {@link ClientClosedException} as soon as the coordinator's client is closed (a closed
     * client reads nothing more; the participants still decide the transaction).
     *
     * @return a new future of the decision (completing it does not complete this transaction's)
     */
    public CompletableFuture<Decision> decision() {
        return decision.copy();
    }

    /**
     * Waits for the decision.
     *
     * @param timeout how long to wait at most
     * @return the decision, or null if {@code timeout} passed first
     * @throws TransactionException if the decision can no longer be learned (see {@link #decision()})
     * @throws ClientClosedException if the coordinator's client is closed, before or while it waits,
     *     with no decision read: the wait ends then, not at {@code timeout}
     * @throws InterruptedException if interrupted while waiting
     */
    public Decision await(Duration timeout) throws InterruptedException {
        try {
            return decision.get(Timeouts.nonNegativeNanos(timeout), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (ExecutionException e) {
            throw (RuntimeException) Reads.unwrap(e);
        }
    }

    /**
     * Whether the decision was read.
     *
     * @return true once {@link #decision()} completed with a decision
     */
    public boolean isDecided() {
        return decision.isDone() && !decision.isCompletedExceptionally();
    }

    void watch() {
        client.addConnectionStateListener(reconnects);
        if (client.isClosed()) {
            clientClosed(); // closed before the listener was there to hear it
        }
        if (decision.isDone()) {
            client.removeConnectionStateListener(reconnects); // abandoned already (the coordinator closed meanwhile)
            return;
        }
        look();
        after(deadlineNanos - System.nanoTime(), this::atDeadline);
    }

    /**
     * Looks at the decision node: reads it if it is there, else leaves a one-shot watch for its
     * creation. Called at the start and after every (re)connection, and a second after a look
     * failed; the deadline's reads do not depend on it.
     */
    private void look() {
        if (decision.isDone()) {
            return;
        }
        synchronized (watchLock) {
            looksSinceFired++; // counted before it is sent: a firing that comes first cannot be undone by it
        }
        long session = client.sessionId();
        client.checkExists().usingWatcher(decisionWatch).forPathAsync(decisionPath).whenComplete((stat, e) -> {
            if (e != null) {
                failedLook(e);
                return;
            }
            watchedSession = session;
            if (stat != null) {
                synchronized (watchLock) {
                    foundNode = true;
                }
            }
            if (decision.isDone()) {
                removeWatch(); // answered after the coordinator stopped waiting: a watch for nobody
            } else if (stat != null) {
                readDecision();
            }
        });
    }

    private void decisionChanged(WatchedEvent event) {
        switch (event.getType()) {
            case NodeCreated, NodeDataChanged, NodeDeleted -> {
                synchronized (watchLock) {
                    if (event.getType() != Watcher.Event.EventType.NodeDeleted) {
                        // the event took every one-shot watch of the path off the client; a look still on its way
                        // reaches a node that is there, so it leaves a data watch, which foundNode records
                        looksSinceFired = 0;
                    }
                    // a deletion keeps the count: a look sent before it that reaches the server after it leaves an
                    // exists watch on the absent node, which only a removal takes back (at worst one answered "none")
                    if (event.getType() != Watcher.Event.EventType.NodeCreated) {
                        foundNode = false; // a data watch fires only on a change or the deletion
                    }
                }
                if (!decision.isDone()) {
                    readDecision();
                }
            }
            default -> {
                // None: connection events reach every watcher too (the coordinator's reconnect listener
                // looks again); a watch-removed event: our own removal
            }
        }
    }

    private void readDecision() {
        Reads.decision(client, path).whenComplete((read, e) -> {
            if (e != null) {
                failedLook(e);
            } else {
                read.ifPresent(this::decided); // absent: the transaction is gone; the deadline's read reports it
            }
        });
    }

    /**
     * A look failed: look again soon (a reconnect looks again too; a duplicate look costs a read).
     * Not if the transaction is gone: the deadline's read reports that.
     */
    private void failedLook(Throwable e) {
        Throwable cause = Reads.unwrap(e);
        if (decision.isDone() || Reads.closed(cause) || cause instanceof NoNodeException) {
            return;
        }
        LOG.debug("transaction {}: looking at the decision failed ({}); looking again in {}", id(), cause, AGAIN);
        after(AGAIN.toNanos(), this::look);
    }

    /**
     * The deadline passed here: read the votes now and record what they allow, then read the
     * decision back. A step that fails for want of a connection is tried again, afresh, soon.
     */
    private void atDeadline() {
        if (decision.isDone()) {
            return;
        }
        Reads.status(client, path).thenCompose(status -> {
            if (status.isEmpty()) {
                gone();
                return CompletableFuture.completedFuture(null);
            }
            if (status.get().decided()) {
                decided(status.get().decision().get());
                return CompletableFuture.completedFuture(null);
            }
            Tally tally = Tally.of(transaction, status.get().votes(), true, "coordinator").orElseThrow();
            return Writes.settledIsDone(Writes.record(client, path, tally))
                .thenCompose(v -> Reads.decision(client, path)) // whoever recorded it: read it back
                .thenAccept(after -> after.ifPresent(this::decided));
        }).whenComplete((v, e) -> {
            if (!decision.isDone() && (e == null || !Reads.closed(e))) {
                if (e != null) {
                    LOG.debug("transaction {}: deciding at the deadline failed ({}); looking again in {}", id(), e, AGAIN);
                }
                after(AGAIN.toNanos(), this::atDeadline);
            }
        });
    }

    /** The decision, as read from its node: report it, then acknowledge it. */
    private void decided(Decision read) {
        // reported before the future completes, so a caller woken by it finds the decision counted; once, though the
        // decision node's listener and the deadline's read may both get here. Only the first of them goes on: had the
        // second completed the future, its caller could wake while the first was still reporting (seen in CI: a
        // deadline's abort counted 0 times right after the caller's await returned)
        if (!reported.compareAndSet(false, true) || decision.isDone()) {
            return;
        }
        BatonObserver observer = client.observer();
        if (observer != BatonObserver.NONE) {
            observer.transactionDecided(folder, read.isCommit(), Tally.cause(read), System.nanoTime() - startedNanos);
        }
        // the acknowledgement is under way before a caller wakes: one that closes the coordinator (and the client)
        // right after await finds it to wait for (before, it was cut off, and a transaction every participant had
        // acknowledged stayed for the retention period, a day by default)
        finish();
        decision.complete(read);
    }

    private void gone() {
        if (decision.completeExceptionally(new TransactionException("transaction " + id() + " was removed before its "
            + "decision could be read (its retention ran out, or someone deleted " + path + ")"))) {
            client.removeConnectionStateListener(reconnects);
            settle();
            stopWatching(); // its exists watch waits for a node that will not come
        }
    }

    /** The coordinator stops waiting: fail the future and acknowledge, so the nodes need not wait for it. */
    void abandon() {
        if (decision.completeExceptionally(new TransactionException("the coordinator was closed before transaction " + id()
            + " was decided; its participants decide it without the coordinator"))) {
            finish();
        }
    }

    /**
     * The client is closed: no decision can be read through it any more, so the future fails with
     * ClientClosedException. Nothing is acknowledged (the client writes nothing more): the participants
     * decide the transaction, and its nodes go at the end of their retention period.
     */
    private void clientClosed() {
        // a decision already read is being handed over (decided() claimed it first): it is the outcome, not the close
        if (reported.compareAndSet(false, true) && decision.completeExceptionally(new ClientClosedException("wait for the decision of transaction " + id(), path))) {
            client.removeConnectionStateListener(reconnects);
            settle();
        }
    }

    /** Once, whether the decision or the coordinator's close came first: stop watching, and acknowledge. */
    private void finish() {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        client.removeConnectionStateListener(reconnects);
        stopWatching();
        acknowledge();
    }

    /** This coordinator's part is over (see {@link #settled}): the coordinator no longer waits for it. */
    private void settle() {
        if (settled.complete(null)) {
            onDone.accept(this);
        }
    }

    /**
     * Waits until this coordinator's acknowledgement and the clean-up after it were tried once (they go on in the
     * background while the client is open if that try failed), or until interrupted.
     */
    void awaitSettled() throws InterruptedException {
        try {
            settled.get();
        } catch (ExecutionException e) {
            // never completed exceptionally
        }
    }

    /**
     * The decision no longer matters here: remove a watch of ours that may still be on the
     * decision node. Judged on the event executor, behind every event ZooKeeper delivered before
     * the reply that ended the wait (it delivers a watch's event before the reply of any read that
     * sees the change): so a watch that the decision's creation fired is known to be gone, and
     * nothing is sent for it. A look answered after this removes its own watch.
     */
    private void stopWatching() {
        client.eventExecutor().execute(() -> {
            boolean mayBeThere;
            synchronized (watchLock) {
                mayBeThere = looksSinceFired > 0 || foundNode;
            }
            if (mayBeThere) {
                removeWatch();
            }
        });
    }

    /** Removes the one-shot watches at the decision node; "no watcher" (it fired, or its session ended) is success. */
    private void removeWatch() {
        client.watches().removeAllAsync(decisionPath, Watcher.WatcherType.Data).whenComplete((v, e) -> {
            if (e != null) {
                LOG.debug("transaction {}: removing the watch on its decision failed ({}); it goes with the session", id(), e);
            }
        });
    }

    private void acknowledge() {
        Writes.settledIsDone(Writes.coordinatorAck(client, path))
            .thenCompose(v -> Writes.settledIsDone(Writes.cleanUpIfDone(client, path, transaction)))
            .whenComplete((v, e) -> {
                settle(); // tried once: a close() waiting for it returns
                if (e != null && !Reads.closed(e) && !client.isClosed()) {
                    LOG.debug("transaction {}: acknowledging the decision failed ({}); trying again in {}", id(), e, AGAIN);
                    after(AGAIN.toNanos(), this::acknowledge);
                }
            });
    }

    private void after(long nanos, Runnable step) {
        if (client.isClosed()) {
            return;
        }
        CompletableFuture.delayedExecutor(Math.max(0, nanos), TimeUnit.NANOSECONDS, client.asyncExecutor()).execute(step);
    }

    @Override
    public String toString() {
        Optional<Decision> d = isDecided() ? Optional.of(decision.join()) : Optional.empty();
        return "PendingTransaction{" + id() + " " + transaction.participants() + " " + d.map(x -> x.outcome().name()).orElse("undecided")
            + "}";
    }
}

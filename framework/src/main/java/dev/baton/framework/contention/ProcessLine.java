package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.contention.Contenders;
import dev.baton.framework.contention.Hold;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The line of one {@link SharedTicket} lock object's local contenders: the process's node(s) in the
 * lock's ZooKeeper line stand for all of them, and holds pass between them in memory (see
 * {@link SharedTicket}). Public only so that the read/write lock module can build its sides on it;
 * it is not meant for applications.
 *
 * <p>State: the queued contenders (FIFO), whether one contender, the taker, is acquiring a node
 * for the process (at most one at a time), and the nodes the process holds (at most
 * {@code maxNodes}), each with its current holders. In {@link Sharing#EXCLUSIVE} a node has one
 * holder at a time: a release hands the node to the first queued contender (the next hand-off
 * number) unless the node must be given back (nobody is queued, the node is no longer valid, or its
 * budget is spent while someone else waits); a queued contender becomes the taker of a new node
 * when the process holds fewer than {@code maxNodes}. Whether someone else waits is looked up at a
 * node's first hand-off (or first join), not once its budget is spent, so that by then the answer
 * is usually known and the node goes at the very next release: the look's round trip is off every
 * other process's wait. In {@link Sharing#SHARED} (a read side) every
 * contender that arrives while the node holds joins it at once, unless its budget is spent while
 * someone else waits; the node is given back when its last holder leaves, and the contenders that
 * queued meanwhile share the next node. A taker that times out or fails passes the role on. A lost
 * node detaches at once: its holders are told (their releases throw), and the queued contenders go
 * on with a new node, as separate nodes' waiters would.
 *
 * <p>Queued contenders are told their turn through a future (completed inside this object's
 * monitor, acted on outside it: blocking waiters wake, asynchronous ones continue on the client's
 * async executor, or on the completing thread once the client is closed and its executor refuses
 * work), so no user code and no ZooKeeper round trip runs under the monitor.
 *
 * <p>Observation. A recipe reports each acquisition of the line ({@link #acquire},
 * {@link #acquireBlocking}) to its client's {@code BatonObserver}, as it reports an ordinary
 * acquisition: every caller is one waiter until it holds, times out or fails, whether it waits in
 * memory or as the taker, and each local hold is one hold. The {@link Source}'s nodes are not
 * reported: they would count the taker twice.
 */
public final class ProcessLine {
    /** How the contenders of one line share a node. */
    public enum Sharing {
        /** One holder at a time per node: the node passes from holder to holder (a mutex, a write side, a lease). */
        EXCLUSIVE,
        /** Every contender admitted holds at once, on one node (a read side). */
        SHARED
    }

    /**
     * Where the line's nodes come from: one acquisition of one node in the lock's ZooKeeper line,
     * not reported to the client's observer (the line's callers are; see {@link ProcessLine}).
     */
    public interface Source {
        /**
         * Starts acquiring one node for the process.
         *
         * @param deadline when to give up ({@link Deadline#none()}: no limit)
         * @return the node's hold, or null on timeout; cancelling it abandons the attempt
         */
        CompletableFuture<? extends Hold> take(Deadline deadline);

        /**
         * Acquires one node for the process on the calling thread.
         *
         * @param deadline when to give up ({@link Deadline#none()}: no limit)
         * @return the node's hold, or null on timeout
         * @throws InterruptedException if the calling thread is interrupted (nothing is left behind)
         */
        Hold takeBlocking(Deadline deadline) throws InterruptedException;

        /** {@return the folder listed to see whether anyone else waits, once a node is handed on} */
        String lineDir();

        /** {@return the markers of the nodes in {@link #lineDir()} that count as waiting} */
        Set<String> lineMarkers();
    }

    /** What a queued contender is told: it holds (a local hand-off), or it must take a node for the process. */
    private sealed interface Turn permits Granted, Take {
    }

    private record Granted(LocalHold hold) implements Turn {
    }

    private enum Take implements Turn { TAKE }

    /** A queued contender: its turn, its deadline, and for an asynchronous one the future its caller has. */
    private record Waiter(CompletableFuture<Turn> turn, Deadline deadline, CompletableFuture<Hold> result) {
        Waiter(Deadline deadline, CompletableFuture<Hold> result) {
            this(new CompletableFuture<>(), deadline, result);
        }
    }

    /** One node's time in the process's hands, its holders, and how much of its budget it spent. */
    static final class Tenure {
        private final Hold node;
        private final long grantedNanos = System.nanoTime();
        /** Guarded by the line: the holds on this node now (at most one in EXCLUSIVE). */
        private final List<LocalHold> holders = new ArrayList<>();
        private long handOffs;
        private boolean othersWait;
        private boolean checking;
        /** Guarded by the line: no more hand-offs, the node goes at the next release (a downgrade took its place). */
        private boolean closing;
        private volatile boolean lost;

        private Tenure(Hold node) {
            this.node = node;
        }

        Hold node() {
            return node;
        }

        boolean lost() {
            return lost;
        }
    }

    private final BatonClient client;
    private final SharedTicket limits;
    private final Sharing sharing;
    private final int maxNodes;
    private final Source source;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private final List<Tenure> held = new ArrayList<>();
    private boolean taking;
    /**
     * Guarded by this: the nodes whose line must be looked at, outside the monitor. A queue, not one
     * slot: two lease nodes may ask before either asker reaches {@link #checkIfAsked}, and a node
     * whose ask were overwritten would stay marked as checking and never look.
     */
    private final ArrayDeque<Tenure> toCheck = new ArrayDeque<>();

    /**
     * A line whose nodes come from {@code source}.
     *
     * @param client the client whose executors run the continuations
     * @param limits the fairness limits of each node
     * @param sharing how the contenders share a node
     * @param maxNodes how many nodes the process may hold at once (1 for a lock; a semaphore's lease count)
     * @param source where the nodes come from
     * @throws IllegalArgumentException if {@code maxNodes} is below 1, or above 1 for {@link Sharing#SHARED}
     */
    public ProcessLine(BatonClient client, SharedTicket limits, Sharing sharing, int maxNodes, Source source) {
        this.client = Objects.requireNonNull(client, "client");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.sharing = Objects.requireNonNull(sharing, "sharing");
        this.source = Objects.requireNonNull(source, "source");
        if (maxNodes < 1 || (sharing == Sharing.SHARED && maxNodes != 1)) {
            throw new IllegalArgumentException("maxNodes must be at least 1 (exactly 1 when shared), was " + maxNodes);
        }
        this.maxNodes = maxNodes;
    }

    /**
     * {@return the full token of a hold of a line: the node's zxid and the hold's number on it} A hold
     * that is not a line's has hand-off number 0.
     *
     * @param hold a hold, of a line or not, as the recipe returned it (wrapped to report to an observer or not)
     */
    public static FencingToken tokenOf(Hold hold) {
        return local(hold) instanceof LocalHold local ? local.token() : new FencingToken(hold.fencingToken(), 0);
    }

    /**
     * {@return the node a hold rests on: the process's node for a hold of a line, else the hold itself}
     *
     * @param hold a hold, of a line or not, as the recipe returned it (wrapped to report to an observer or not)
     */
    public static Hold nodeOf(Hold hold) {
        return local(hold) instanceof LocalHold local ? local.tenure().node() : hold;
    }

    /**
     * Ends the hand-offs of the node {@code hold} rests on: its next release gives the node back (a
     * downgrade put a read node in its place, which a later local writer must not pass). Nothing
     * for a hold that is not a line's.
     *
     * @param hold a hold, of a line or not, as the recipe returned it (wrapped to report to an observer or not)
     */
    public static void endHandOffs(Hold hold) {
        if (local(hold) instanceof LocalHold local) {
            local.line().close(local.tenure());
        }
    }

    /**
     * {@return {@code hold} with the observer's wrapper taken off} The recipes report each local
     * acquisition and hold of a line to the client's observer, so the hold a caller has may wrap a
     * {@link LocalHold}.
     */
    private static Hold local(Hold hold) {
        return WrappedHold.unwrap(hold);
    }

    /**
     * The blocking acquisition.
     *
     * @param deadline when to give up ({@link Deadline#none()}: no limit)
     * @return the hold, or null on timeout
     * @throws InterruptedException if the calling thread is interrupted (nothing is left behind)
     */
    public Hold acquireBlocking(Deadline deadline) throws InterruptedException {
        Waiter me = new Waiter(Objects.requireNonNull(deadline, "deadline"), null);
        Turn turn = enter(me);
        checkIfAsked();
        if (turn == null) {
            turn = awaitTurn(me);
            if (turn == null) {
                return null;
            }
        }
        if (turn instanceof Granted granted) {
            return granted.hold();
        }
        return takeBlocking(me.deadline());
    }

    /**
     * The asynchronous acquisition.
     *
     * @param deadline when to give up ({@link Deadline#none()}: no limit)
     * @return the hold, or null on timeout; cancelling it leaves nothing behind
     */
    public CompletableFuture<Hold> acquire(Deadline deadline) {
        CompletableFuture<Hold> result = new CompletableFuture<>();
        Waiter me = new Waiter(Objects.requireNonNull(deadline, "deadline"), result);
        Turn entered = enter(me);
        checkIfAsked();
        if (entered instanceof Granted granted) {
            result.complete(granted.hold());
            return result;
        }
        if (entered == Take.TAKE) {
            takeAsync(me);
            return result;
        }
        me.turn().whenCompleteAsync((turn, e) -> {
            if (turn instanceof Granted granted) {
                if (!result.complete(granted.hold())) {
                    granted.hold().delete(); // cancelled meanwhile: pass it on
                }
            } else if (turn == Take.TAKE) {
                takeAsync(me);
            } // cancelled: the waiter withdrew (timeout or cancellation) and was told so already
        }, this::execute);
        if (!me.deadline().isNone()) {
            CompletableFuture.delayedExecutor(Math.max(0, me.deadline().remainingNanos()), TimeUnit.NANOSECONDS,
                this::execute).execute(() -> {
                    if (withdraw(me)) {
                        result.complete(null);
                    }
                });
        }
        result.whenComplete((hold, e) -> {
            if (result.isCancelled()) {
                withdraw(me);
            }
        });
        return result;
    }

    /**
     * Ends {@code hold}: hands the node to the next local contender, or says which node to give back.
     *
     * @return the node to delete, or null when the node was handed on or still has holders (or the
     *     hold was already released)
     */
    Hold release(LocalHold hold) {
        try {
            synchronized (this) {
                if (!hold.markReleased()) {
                    return null;
                }
                Tenure current = hold.tenure();
                if (!current.holders.remove(hold) || !held.contains(current)) {
                    return current.node; // a lost node, detached already: its holders give it back
                }
                if (sharing == Sharing.SHARED && !current.holders.isEmpty()) {
                    return null; // other readers still hold on this node
                }
                if (usable(current) && sharing == Sharing.EXCLUSIVE && handOffLocked(current)) {
                    askLookIfHandedOn(current);
                    return null;
                }
                held.remove(current);
                promoteLocked();
                return current.node;
            }
        } finally {
            checkIfAsked();
        }
    }

    /**
     * {@return whether a node is to be given back at its next release (or, shared, admits no more
     * holders): its budget is spent and someone else waits} For tests.
     */
    public synchronized boolean yieldsAtNextHandOff() {
        return held.stream().anyMatch(this::mustYield);
    }

    /**
     * {@return whether the line knows that someone else waits for a node it holds (its listing or
     * its children watch said so), budget spent or not} For tests.
     */
    public synchronized boolean knowsOthersWait() {
        return held.stream().anyMatch(tenure -> tenure.othersWait);
    }

    /** Registers a loss callback of {@code hold}: run at once (on the event executor) if the hold is already lost. */
    void onLost(LocalHold hold, Runnable callback) {
        boolean now;
        synchronized (this) {
            now = !hold.addCallback(callback);
        }
        if (now) {
            tell(callback);
        }
    }

    /**
     * The client's async executor while it takes work; once the client is closed it refuses, and the
     * continuation runs on the completing thread instead, so a waiter still hears how it ended.
     */
    private void execute(Runnable command) {
        try {
            client.asyncExecutor().execute(command);
        } catch (RejectedExecutionException closed) {
            command.run();
        }
    }

    /** A loss callback on the event executor, or on this thread once the client is closed. */
    private void tell(Runnable callback) {
        try {
            client.eventExecutor().execute(callback);
        } catch (RejectedExecutionException closed) {
            callback.run();
        }
    }

    /**
     * Joins the line: {@link Granted} when a shared node admits it at once, {@link Take#TAKE} when it is to
     * take a node, else queued (null).
     */
    private synchronized Turn enter(Waiter me) {
        if (sharing == Sharing.SHARED && waiters.isEmpty() && !held.isEmpty()) {
            Tenure current = held.get(0);
            if (usable(current)) {
                LocalHold joined = join(current);
                askLookIfHandedOn(current);
                return new Granted(joined);
            }
        }
        if (!taking && held.size() < maxNodes && waiters.isEmpty()) {
            taking = true;
            return Take.TAKE;
        }
        waiters.add(me);
        return null;
    }

    /** Waits for a blocking waiter's turn: null once its deadline passed and it withdrew. */
    private Turn awaitTurn(Waiter me) throws InterruptedException {
        try {
            return me.deadline().isNone() ? me.turn().get()
                : me.turn().get(me.deadline().remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return withdraw(me) ? null : me.turn().join();
        } catch (InterruptedException e) {
            if (!withdraw(me)) {
                Turn arrived = me.turn().join();
                if (arrived instanceof Granted granted) {
                    granted.hold().delete(); // pass the lock on
                } else {
                    takeEnded(); // pass the taker's role on
                }
            }
            throw e;
        } catch (ExecutionException e) {
            throw new IllegalStateException("a turn is only ever completed or withdrawn", e);
        }
    }

    /** {@return whether the waiter left the queue before its turn came} */
    private boolean withdraw(Waiter me) {
        if (!me.turn().cancel(false)) {
            return false;
        }
        synchronized (this) {
            waiters.remove(me);
        }
        return true;
    }

    /** The taker, blocking: runs the source on its own thread (its fastest path). */
    private Hold takeBlocking(Deadline deadline) throws InterruptedException {
        Hold node;
        try {
            node = source.takeBlocking(deadline);
        } catch (InterruptedException | RuntimeException | Error e) {
            takeEnded();
            throw e;
        }
        if (node == null) {
            takeEnded();
            return null;
        }
        return granted(node);
    }

    /** The taker, asynchronous: cancelling the caller's future abandons the source's attempt. */
    private void takeAsync(Waiter me) {
        CompletableFuture<? extends Hold> attempt;
        try {
            attempt = source.take(me.deadline());
        } catch (RuntimeException e) {
            takeEnded();
            me.result().completeExceptionally(e);
            return;
        }
        me.result().whenComplete((hold, e) -> {
            if (me.result().isCancelled()) {
                attempt.cancel(true);
            }
        });
        attempt.whenComplete((node, e) -> {
            if (e != null) {
                takeEnded();
                me.result().completeExceptionally(Failures.unwrap(e));
            } else if (node == null) {
                takeEnded();
                me.result().complete(null);
            } else {
                LocalHold hold = granted(node);
                if (!me.result().complete(hold)) {
                    hold.delete(); // cancelled meanwhile: pass it on
                }
            }
        });
    }

    /** The taker holds a node: it is the node's first holder (with, when shared, every queued contender). */
    private LocalHold granted(Hold node) {
        Tenure granted = new Tenure(node);
        LocalHold first = new LocalHold(this, granted, 0);
        synchronized (this) {
            taking = false;
            held.add(granted);
            granted.holders.add(first);
            if (sharing == Sharing.SHARED) {
                Waiter next;
                while ((next = waiters.peek()) != null) {
                    waiters.poll();
                    LocalHold joined = new LocalHold(this, granted, granted.handOffs + 1);
                    if (next.turn().complete(new Granted(joined))) {
                        granted.handOffs++;
                        granted.holders.add(joined);
                    }
                }
                askLookIfHandedOn(granted);
            } else {
                promoteLocked(); // a semaphore may take another lease for those still queued
            }
        }
        node.onLost(() -> lost(granted));
        checkIfAsked();
        return first;
    }

    /** The taker got no node: the next queued contender takes over, or the line rests. */
    private synchronized void takeEnded() {
        taking = false;
        promoteLocked();
    }

    /** Makes the first queued contender that still waits the taker, if the process may take another node. */
    private void promoteLocked() {
        if (taking || held.size() >= maxNodes) {
            return;
        }
        Waiter next;
        while ((next = waiters.poll()) != null) {
            if (next.turn().complete(Take.TAKE)) {
                taking = true;
                return;
            }
        }
    }

    /** A shared node admits a newcomer: a new hold on it. */
    private LocalHold join(Tenure current) {
        LocalHold joined = new LocalHold(this, current, ++current.handOffs);
        current.holders.add(joined);
        return joined;
    }

    /** Grants the node to the first queued contender that still waits; {@return false if none does} */
    private boolean handOffLocked(Tenure current) {
        Waiter next;
        while ((next = waiters.poll()) != null) {
            LocalHold hold = new LocalHold(this, current, current.handOffs + 1);
            if (next.turn().complete(new Granted(hold))) {
                current.handOffs++;
                current.holders.add(hold);
                return true;
            }
        }
        return false;
    }

    /** {@return whether the node may be passed on (or joined): valid, not closing, not yielding} */
    private boolean usable(Tenure current) {
        return !current.lost && !current.closing && current.node.isValid() && !mustYield(current);
    }

    /**
     * Asks for a look at the line once the node has been handed on (or joined) at least once, done
     * by {@link #checkIfAsked}. Not at the grant: a node nobody else in the process wants is given
     * back at its release anyway, and an uncontended hold must not pay a listing. Not once the
     * budget is spent, as it was: then the look's round trip was added to every other process's
     * wait, while now its answer (or the watch it leaves) is in by the time the budget runs out.
     */
    private void askLookIfHandedOn(Tenure current) {
        if (!current.checking && !current.othersWait && current.handOffs > 0) {
            current.checking = true;
            toCheck.add(current);
        }
    }

    private void checkIfAsked() {
        List<Tenure> checks;
        synchronized (this) {
            if (toCheck.isEmpty()) {
                return;
            }
            checks = new ArrayList<>(toCheck);
            toCheck.clear();
        }
        checks.forEach(this::lookForOthers);
    }

    /** {@return whether the node used its budget: the hand-off or the time limit} */
    private boolean spent(Tenure current) {
        return current.handOffs >= limits.handOffLimit()
            || System.nanoTime() - current.grantedNanos >= limits.tenureLimit().toNanos();
    }

    private boolean mustYield(Tenure current) {
        return current.othersWait && spent(current);
    }

    private synchronized void close(Tenure current) {
        current.closing = true;
    }

    /**
     * Lists the line's folder once for a node that was handed on: someone else in line means it
     * yields at the first release once its budget is spent; otherwise a children watch says when
     * someone arrives (any event counts: at worst the process yields once too often).
     */
    private void lookForOthers(Tenure current) {
        String mine = current.node.nodes().get(0);
        String myName = mine.substring(mine.lastIndexOf('/') + 1);
        client.getChildren().usingWatcher(event -> othersWait(current))
            .forPathAsync(source.lineDir())
            .whenComplete((children, e) -> {
                if (e != null) {
                    synchronized (this) {
                        current.checking = false; // look again at a later hand-off
                    }
                    return;
                }
                List<String> line = Contenders.inOrder(children, source.lineMarkers());
                if (line.stream().anyMatch(name -> !name.equals(myName))) {
                    othersWait(current);
                }
            });
    }

    private synchronized void othersWait(Tenure current) {
        current.othersWait = true;
    }

    /** The node is lost: its holders are told, and the queued contenders go on with a new node. */
    private void lost(Tenure gone) {
        List<Runnable> callbacks = new ArrayList<>();
        synchronized (this) {
            gone.lost = true;
            if (held.remove(gone)) {
                gone.holders.forEach(holder -> callbacks.addAll(holder.takeCallbacks()));
                gone.holders.clear();
                promoteLocked();
            }
        }
        callbacks.forEach(this::tell);
    }
}

package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.contention.Contenders;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.observe.ObservedHolds;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The line of one {@link SharedTicket} mutex object's local contenders: one node in the lock's line
 * stands for all of them, and the lock passes between them in memory (see {@link SharedTicket}).
 *
 * <p>Phases: IDLE (no node, nobody taking one), TAKING (one contender, the taker, is running the
 * engine for the process; the others queue here), HELD (the node holds; {@link #holder} has the
 * lock). A release in HELD hands the lock to the first queued contender ({@link LocalHold} with the
 * next hand-off number) unless the node must be given back: nobody is queued, the node is no longer
 * valid, or its budget is spent while someone else waits; then the node is deleted and the first
 * queued contender, if any, becomes the taker of a new node. A taker that times out or fails passes
 * the role on the same way. A lost node detaches at once: its holder is told (its release throws)
 * and the queued contenders go on with a new node, as separate nodes' waiters would.
 *
 * <p>Queued contenders are told their turn through a future (completed inside this object's monitor,
 * acted on outside it: blocking waiters wake, asynchronous ones continue on the client's async
 * executor), so no user code and no ZooKeeper round trip runs under the monitor.
 */
final class ProcessLine {
    private enum Phase { IDLE, TAKING, HELD }

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

    /** One node's time at the head of the line, and how much of its budget it spent. */
    static final class Tenure {
        private final Hold node;
        private final long grantedNanos = System.nanoTime();
        private long handOffs;
        private boolean othersWait;
        private boolean checking;
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
    private final Contention contention;
    private final byte[] data;
    private final SharedTicket limits;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private Phase phase = Phase.IDLE;
    private Tenure tenure;
    private LocalHold holder;

    ProcessLine(BatonClient client, Contention contention, byte[] data, SharedTicket limits) {
        this.client = client;
        this.contention = contention;
        this.data = data;
        this.limits = limits;
    }

    /** The blocking acquisition: the hold, or null on timeout; an interrupt leaves nothing behind. */
    Hold acquireBlocking(Duration timeout) throws InterruptedException {
        Waiter me = new Waiter(deadline(timeout), null);
        Turn turn = enter(me);
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

    /** The asynchronous acquisition: completes with the hold, or null on timeout; cancelling it leaves nothing. */
    CompletableFuture<Hold> acquire(Duration timeout) {
        CompletableFuture<Hold> result = new CompletableFuture<>();
        Waiter me = new Waiter(deadline(timeout), result);
        if (enter(me) == Take.TAKE) {
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
        }, client.asyncExecutor());
        if (!me.deadline().isNone()) {
            CompletableFuture.delayedExecutor(Math.max(0, me.deadline().remainingNanos()), TimeUnit.NANOSECONDS,
                client.asyncExecutor()).execute(() -> {
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
     * Ends {@code hold}: hands the lock to the next local contender, or says which node to give back.
     *
     * @return the node to delete, or null when the lock was handed on (or the hold was already released)
     */
    Hold release(LocalHold hold) {
        Tenure check = null;
        try {
            synchronized (this) {
                if (!hold.markReleased()) {
                    return null;
                }
                if (holder != hold) {
                    return hold.tenure().node(); // a lost node, detached already: its holder gives it back
                }
                holder = null;
                Tenure current = tenure;
                if (!current.lost && current.node.isValid() && !mustYield(current)) {
                    if (handOffLocked(current)) {
                        if (!current.checking && !current.othersWait && spent(current)) {
                            current.checking = true;
                            check = current;
                        }
                        return null;
                    }
                }
                tenure = null;
                phase = Phase.IDLE;
                promoteLocked();
                return current.node;
            }
        } finally {
            if (check != null) {
                lookForOthers(check);
            }
        }
    }

    /** {@return whether the node is to be given back at the next release: its budget is spent and someone else waits} */
    synchronized boolean yieldsAtNextHandOff() {
        return tenure != null && mustYield(tenure);
    }

    /** Registers a loss callback of {@code hold}: run at once (on the event executor) if the hold is already lost. */
    void onLost(LocalHold hold, Runnable callback) {
        boolean now;
        synchronized (this) {
            now = !hold.addCallback(callback);
        }
        if (now) {
            client.eventExecutor().execute(callback);
        }
    }

    private static Deadline deadline(Duration timeout) {
        return timeout == null ? Deadline.none() : Deadline.after(timeout);
    }

    private static Duration timeoutOf(Deadline deadline) {
        return deadline.isNone() ? null : deadline.remaining();
    }

    /** Joins the line: {@link Take#TAKE} if nobody holds or takes a node, else queued (null). */
    private synchronized Turn enter(Waiter me) {
        if (phase == Phase.IDLE) {
            phase = Phase.TAKING;
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

    /** The taker, blocking: runs the engine on its own thread (the engine's fastest path). */
    private Hold takeBlocking(Deadline deadline) throws InterruptedException {
        Hold node;
        try {
            node = ObservedHolds.trackBlocking(client, "mutex", contention.dir(),
                () -> contention.acquireHoldBlocking(data, timeoutOf(deadline)));
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

    /** The taker, asynchronous: cancelling the caller's future abandons the engine's attempt. */
    private void takeAsync(Waiter me) {
        CompletableFuture<Hold> engine = ObservedHolds.track(client, "mutex", contention.dir(),
            contention.acquireHold(data, timeoutOf(me.deadline())));
        me.result().whenComplete((hold, e) -> {
            if (me.result().isCancelled()) {
                engine.cancel(true);
            }
        });
        engine.whenComplete((node, e) -> {
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

    private LocalHold granted(Hold node) {
        Tenure granted = new Tenure(node);
        LocalHold first = new LocalHold(this, granted, 0);
        synchronized (this) {
            tenure = granted;
            phase = Phase.HELD;
            holder = first;
        }
        node.onLost(() -> lost(granted));
        return first;
    }

    /** The taker got no node: the next queued contender takes over, or the line is idle. */
    private synchronized void takeEnded() {
        phase = Phase.IDLE;
        promoteLocked();
    }

    /** In IDLE: makes the first queued contender that still waits the taker. */
    private void promoteLocked() {
        Waiter next;
        while ((next = waiters.poll()) != null) {
            if (next.turn().complete(Take.TAKE)) {
                phase = Phase.TAKING;
                return;
            }
        }
    }

    /** Grants the lock to the first queued contender that still waits; {@return false if none does} */
    private boolean handOffLocked(Tenure current) {
        Waiter next;
        while ((next = waiters.poll()) != null) {
            LocalHold hold = new LocalHold(this, current, current.handOffs + 1);
            if (next.turn().complete(new Granted(hold))) {
                current.handOffs++;
                holder = hold;
                return true;
            }
        }
        return false;
    }

    /** {@return whether the node used its budget: the hand-off or the time limit} */
    private boolean spent(Tenure current) {
        return current.handOffs >= limits.handOffLimit()
            || System.nanoTime() - current.grantedNanos >= limits.tenureLimit().toNanos();
    }

    private boolean mustYield(Tenure current) {
        return current.othersWait && spent(current);
    }

    /**
     * Lists the lock's folder once for a node that spent its budget: someone else in line means it
     * yields at the next hand-off; otherwise a children watch says when someone arrives (any event
     * counts: at worst the process yields once too often).
     */
    private void lookForOthers(Tenure current) {
        String mine = current.node.nodes().get(0);
        String myName = mine.substring(mine.lastIndexOf('/') + 1);
        client.getChildren().usingWatcher(event -> othersWait(current))
            .forPathAsync(contention.dir())
            .whenComplete((children, e) -> {
                if (e != null) {
                    synchronized (this) {
                        current.checking = false; // look again at a later hand-off
                    }
                    return;
                }
                List<String> line = Contenders.inOrder(children, Set.of(InterProcessMutex.MARKER));
                if (line.stream().anyMatch(name -> !name.equals(myName))) {
                    othersWait(current);
                }
            });
    }

    private synchronized void othersWait(Tenure current) {
        current.othersWait = true;
    }

    /** The node is lost: its holder is told, and the queued contenders go on with a new node. */
    private void lost(Tenure gone) {
        List<Runnable> callbacks;
        synchronized (this) {
            gone.lost = true;
            callbacks = holder != null && holder.tenure() == gone ? holder.takeCallbacks() : List.of();
            if (tenure == gone) {
                tenure = null;
                holder = null;
                phase = Phase.IDLE;
                promoteLocked();
            }
        }
        callbacks.forEach(client.eventExecutor()::execute);
    }
}

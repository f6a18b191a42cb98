package dev.baton.framework.contention;

import dev.baton.framework.ClientClosedException;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.internal.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * One acquisition of a {@link Contention} engine, start to end: a state machine over {@link Phase}
 * driven by replies and watch events.
 *
 * <pre>
 *   TAKING  --created, listing shows it-->  decide
 *   LOOKING --listing-->                    decide
 *   decide: holds                 --> ENDED (result = what {@code grant} makes of the ticket)
 *           waits, look-once      --> ENDED (result = null)
 *           waits                 --> WAITING (watch the node the rule named)
 *   WAITING --named node gone--> ENDED if the rule said that is the last obstacle, else LOOKING
 *   any     --own ticket lost (deleted, session ended or left behind)--> TAKING (back of the line)
 *   any     --timed out, cancelled, failed--> ENDED (the ticket, or the create in flight, is given back)
 * </pre>
 *
 * <p>Every move goes through {@link #moveTo}, which also counts moves: a reply or event carries the
 * count of the move that asked for it, and is dropped when the attempt has moved on since.
 *
 * <p>Threads. The steps run one at a time on {@link #steps}, an executor {@link Attempts} chooses: for an
 * asynchronous acquisition the client's async executor (serialised); for a blocking one the waiting caller
 * itself. Replies and the engine's
 * watch events arrive on ZooKeeper's event thread and only hand the next step over — see
 * {@link SpeedPaths} for those shortcuts and what they gain. The rule runs on the step's thread;
 * {@link #result} never completes on ZooKeeper's thread. Fields marked "guarded" are guarded by
 * {@code this}.
 */
final class Attempt<R> {
    /** Where an attempt is. Changed only by {@link #moveTo}. */
    enum Phase {
        /** A create of a ticket, and the listing sent right behind it, are in flight. */
        TAKING,
        /** A listing of the line is in flight; the rule decides on its reply. */
        LOOKING,
        /** Waiting for the one node the rule named to go. */
        WAITING,
        /** The result is complete: held, timed out, cancelled or failed. Final. */
        ENDED
    }

    /** A ticket that held, and the engine's watch on its node (which the hold goes on using). */
    record Granted(Ticket ticket, OwnNodeWatch watch) {
    }

    private final Contention engine;
    private final byte[] data;
    private final Duration timeout;
    private final Executor steps;
    private final Function<Granted, R> grant;
    private final Consumer<R> discard;
    private final CompletableFuture<R> result = new CompletableFuture<>();
    /** Guarded. */
    private Phase phase = Phase.TAKING;
    /** Guarded: how many moves were made; a reply or event of an earlier move is stale. */
    private int moves;
    /** Guarded: the current ticket, null while taking one. */
    private Ticket ticket;
    /** Guarded: the engine's watch on the current ticket's node. */
    private OwnNodeWatch own;
    /** Guarded: the last create sent, cancelled if the attempt ends before it answers. */
    private CompletableFuture<CreatedNode> creating;

    /**
     * @param grant makes what the caller gets of a ticket that holds
     * @param discard undoes that when the result was completed (timed out, cancelled) meanwhile
     */
    Attempt(Contention engine, byte[] data, Duration timeout, Executor steps, Function<Granted, R> grant,
            Consumer<R> discard) {
        this.engine = engine;
        this.data = data;
        this.timeout = timeout;
        this.steps = steps;
        this.grant = grant;
        this.discard = discard;
    }

    // ---- the one transition ----

    /**
     * Moves to {@code next} unless the attempt has ended, or — when {@code from} is not negative —
     * has moved since move {@code from}.
     *
     * @return the number of this move, which replies and events of the new phase carry; -1 if the
     *     move was refused
     */
    private synchronized int moveTo(Phase next, int from) {
        if (ended() || (from >= 0 && from != moves)) {
            return -1;
        }
        phase = next;
        return ++moves;
    }

    /** Whether move {@code move} is still the current one. */
    private synchronized boolean current(int move) {
        return move == moves && !ended();
    }

    /**
     * Whether the attempt has ended. The result is checked too: it completes (a timer, a cancel,
     * the hold) just before {@link #begin}'s callback moves the phase to ENDED.
     */
    private synchronized boolean ended() {
        return phase == Phase.ENDED || result.isDone();
    }

    // ---- the steps ----

    /**
     * {@return the attempt's result: what {@code grant} made of the ticket that held, or null (timed out);
     * completing it first (a timer, a cancel) abandons the attempt}
     */
    CompletableFuture<R> result() {
        return result;
    }

    /** Takes the first ticket; a result completed without a hold (timed out, cancelled, failed) abandons it. */
    void begin() {
        result.whenComplete((held, e) -> end(held == null));
        takeTicket(-1);
    }

    /**
     * TAKING: sends the create and, right behind it, the listing. The servers answer a session's
     * requests in order, so the listing comes back just after the create, showing our node: one
     * round trip for both, and one wake-up of the step's thread for the two replies.
     *
     * @param from the move this one follows from (-1: whatever the attempt is in)
     */
    private void takeTicket(int from) {
        CompletableFuture<CreatedNode> create;
        CompletableFuture<List<String>> listing;
        synchronized (this) {
            if (moveTo(Phase.TAKING, from) < 0) {
                return;
            }
            ticket = null;
            if (own != null) {
                own.listen(null, null);
                own = null;
            }
            var builder = engine.ops().create()
                .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                .creatingParentContainersIfNeeded();
            builder = engine.sessionProtection() ? builder.withSessionProtection() : builder.withProtection();
            create = builder.forPathWithStatAsync(Paths.join(engine.dir(), engine.marker()), data);
            creating = create;
            listing = engine.ops().getChildren().forPathAsync(engine.dir());
        }
        then(CompletableFuture.allOf(create, listing), (both, failure) -> {
            CreatedNode node;
            try {
                node = create.join();
            } catch (CompletionException | CancellationException e) {
                fail(e);
                return;
            }
            took(node, listing);
        });
    }

    /** The create returned {@code node}; {@code listing} (complete) was sent right behind it. */
    private void took(CreatedNode node, CompletableFuture<List<String>> listing) {
        Ticket mine;
        int move;
        synchronized (this) {
            if (ended()) {
                // timed out or cancelled while the create was in flight: give the node back
                engine.client().delete().quietly().guaranteed().forPathAsync(node.path());
                return;
            }
            mine = new Ticket(node.path(), Contenders.sequence(node.name(), engine.markers()), node.stat().getCzxid(),
                node.stat().getEphemeralOwner());
            ticket = mine;
            own = new OwnNodeWatch(engine.ops(), mine.path());
            own.listen(end -> lostOwnNode(mine, end), steps);
            move = moveTo(Phase.LOOKING, -1);
        }
        List<String> children = listing.isCompletedExceptionally() ? null : listing.join();
        if (children != null && children.contains(mine.name())) {
            listed(mine, move, children, null);
        } else {
            look(); // the listing went before the create took (a retry, a folder made first): list again
        }
    }

    /** LOOKING: lists the line; the rule decides on the reply. */
    private void look() {
        Ticket mine;
        int move;
        synchronized (this) {
            if (ticket == null) {
                return;
            }
            mine = ticket;
            move = moveTo(Phase.LOOKING, -1);
        }
        if (move < 0) {
            return;
        }
        then(engine.ops().getChildren().forPathAsync(engine.dir()), (children, e) -> listed(mine, move, children, e));
    }

    /** Asks the rule about the line the listing of move {@code move} returned. */
    private void listed(Ticket mine, int move, List<String> children, Throwable e) {
        if (!current(move)) {
            return;
        }
        if (e != null && Failures.rethrow(e) instanceof NoNodeException) {
            // the folder was deleted (by an operator, or reaped as an empty container)
            // and our node with it: back of a new line, like any other lost ticket
            takeTicket(move);
            return;
        }
        if (e != null) {
            fail(e);
            return;
        }
        if (leftBehind(mine, move)) {
            return;
        }
        List<String> ordered = Contenders.inOrder(children, engine.markers());
        int index = ordered.indexOf(mine.name());
        if (index < 0) {
            takeTicket(move); // our node vanished (session expired, or deleted by someone)
            return;
        }
        Decision decision;
        try {
            decision = engine.rule().decide(ordered, index);
        } catch (RuntimeException ruleFailed) {
            fail(ruleFailed);
            return;
        }
        if (decision.holds()) {
            hold(mine, move);
        } else if (timeout != null && timeout.isZero()) {
            // a zero timeout asked for one look, and the ticket does not hold: give up (abandon deletes it)
            result.complete(null);
        } else {
            waitFor(mine, move, decision);
        }
    }

    /**
     * WAITING: watches the one node the rule named; its deletion wakes exactly this contender.
     *
     * <p>The watch is a getData watch, not an exists watch: on a node that is already gone an
     * exists watch stays registered (client and server) until that path is created again — for a
     * sequential name, never — while a getData watch is only set on a node that exists. Curator
     * does the same.
     *
     * <p>Before the first wait, our own node gets its watch: its deletion (by an operator, with its
     * folder) or its session's end is then heard before any later change — watch events come in the
     * order the servers made the changes — so a hand-off can be taken without listing, and the
     * hold inherits the watch. (A ticket that holds at its first look never waits, and is spared
     * the request: see {@link SpeedPaths.LateWatches}.)
     */
    private void waitFor(Ticket mine, int listedMove, Decision decision) {
        OwnNodeWatch watch;
        int move;
        synchronized (this) {
            watch = own;
            move = moveTo(Phase.WAITING, listedMove);
        }
        if (move < 0) {
            return;
        }
        if (watch != null && !watch.armed()) {
            watch.arm();
        }
        Watcher watcher = SpeedPaths.handOver(steps, event -> onEvent(event, mine, move, decision));
        String watched = Paths.join(engine.dir(), decision.watch());
        then(engine.ops().getData().usingWatcher(watcher).forPathAsync(watched), (bytes, e) -> {
            if (!current(move)) {
                return;
            }
            if (e == null) {
                leftBehind(mine, move); // watching: the node's deletion moves on
            } else if (Failures.rethrow(e) instanceof NoNodeException) {
                predecessorGone(mine, move, decision); // already gone, and no watch was set
            } else {
                fail(e);
            }
        });
    }

    private void onEvent(WatchedEvent event, Ticket mine, int move, Decision decision) {
        if (!current(move)) {
            return;
        }
        if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
            predecessorGone(mine, move, decision);
        } else if (event.getState() == Watcher.Event.KeeperState.Expired) {
            giveBack(move);
        } else if (event.getType() != Watcher.Event.EventType.None) {
            // the node changed but is still there: the watch is used up, so look again
            look();
        }
    }

    /** The node the rule named is gone: hold if the rule said that was the last obstacle, else look again. */
    private void predecessorGone(Ticket mine, int move, Decision decision) {
        if (!current(move)) {
            return;
        }
        if (decision.holdsWhenWatchedGoes()) {
            hold(mine, move);
        } else {
            look();
        }
    }

    /**
     * ENDED, holding: the result completes on this attempt's executor — the async executor, or the
     * waiting caller — never on ZooKeeper's thread.
     */
    private void hold(Ticket mine, int move) {
        if (leftBehind(mine, move)) {
            return;
        }
        OwnNodeWatch watch;
        synchronized (this) {
            if (!current(move)) {
                return;
            }
            watch = own;
        }
        R granted;
        try {
            granted = grant.apply(new Granted(mine, watch));
        } catch (RuntimeException | Error e) {
            result.completeExceptionally(e); // abandon gives the node back
            return;
        }
        if (!result.complete(granted)) {
            discard.accept(granted); // timed out or cancelled just now: abandon gave the node back
        }
    }

    // ---- starting over, failing, ending ----

    /** Our own node is gone (its watch said so): take a new ticket. */
    private void lostOwnNode(Ticket mine, String end) {
        int move;
        synchronized (this) {
            if (ticket != mine) {
                return;
            }
            move = moves;
        }
        if (OwnNodeWatch.EXPIRED.equals(end)) {
            engine.release(mine); // it may outlive the session the client gave up on (see giveBack)
        }
        takeTicket(move);
    }

    /**
     * Whether the client has left the session that owns our node: it gave up on it (suspended
     * past the session timeout) and the retry loop finished a step on the new session. No watch
     * of ours covers that node any more and it goes whenever the servers expire its session:
     * give it back and take a ticket of the current session. (With a watch already set when the
     * session went, the Expired event does the same.)
     */
    private boolean leftBehind(Ticket mine, int move) {
        if (engine.client().sessionId() == mine.sessionId()) {
            return false;
        }
        engine.release(mine);
        takeTicket(move);
        return true;
    }

    /**
     * Our session ended: take a new ticket, and delete the old node in case it outlives the
     * session on the servers (the client gave up on the session before the servers expired it),
     * so it does not hold up the line until then.
     */
    private void giveBack(int move) {
        Ticket old;
        synchronized (this) {
            if (!current(move)) {
                return;
            }
            old = ticket;
        }
        if (old != null) {
            engine.release(old);
        }
        takeTicket(move);
    }

    private void fail(Throwable e) {
        Throwable cause = Failures.rethrow(e);
        if (cause instanceof CancellationException) {
            return;
        }
        if (cause instanceof SessionExpiredException) {
            // the session is gone; the client is building a new one
            int move;
            synchronized (this) {
                move = moves;
            }
            giveBack(move);
            return;
        }
        result.completeExceptionally(cause);
    }

    /**
     * ENDED. Held: the hold has the ticket and its watch now. Not held ({@code abandoned}: timed out,
     * cancelled or failed): delete our node, or the one being created.
     */
    private void end(boolean abandoned) {
        Ticket left;
        CompletableFuture<CreatedNode> inFlight;
        synchronized (this) {
            phase = Phase.ENDED;
            moves++;
            if (!abandoned) {
                return;
            }
            left = ticket;
            inFlight = creating;
            if (own != null) {
                own.listen(null, null);
            }
        }
        if (left != null) {
            engine.release(left);
        } else if (inFlight != null) {
            inFlight.cancel(false);
        }
    }

    /**
     * Runs {@code step} on this attempt's executor once {@code reply} completes. A reply that
     * failed because the client is closed ends the attempt where it arrives: a closed client's
     * executor no longer runs steps, so handing it over would leave the result pending forever.
     */
    private <T> void then(CompletableFuture<T> reply, BiConsumer<T, Throwable> step) {
        reply.whenComplete((value, e) -> {
            if (e != null && Failures.unwrap(e) instanceof ClientClosedException closed) {
                result.completeExceptionally(closed);
                return;
            }
            steps.execute(() -> step.accept(value, e));
        });
    }
}

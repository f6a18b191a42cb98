package dev.baton.framework.contention;

import dev.baton.framework.CreatedNode;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.SessionExpiredException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One acquisition of a {@link Contention} engine, start to end: a state machine over {@link Phase}
 * driven by replies and watch events.
 *
 * <pre>
 *   TAKING  --created, listing shows it-->  decide
 *   LOOKING --listing-->                    decide
 *   decide: holds                 --> ENDED (result = what {@code grant} makes of the ticket)
 *           waits, deadline past  --> ENDED (result = null; a zero timeout looks once)
 *           waits                 --> WAITING (watch the node the rule named)
 *   WAITING --named node gone--> ENDED if the rule said that is the last obstacle, else LOOKING
 *   any     --own ticket lost (deleted, session ended or left behind)--> TAKING (back of the line)
 *   any     --timed out, cancelled, failed--> ENDED (the ticket, or the create in flight, is given back)
 * </pre>
 *
 * <p>Every move goes through {@link #moveTo}, which also counts moves: a reply or event carries the
 * count of the move that asked for it, and is dropped when the attempt has moved on since.
 *
 * <p>Threads. The steps, and the rule, run one at a time on {@link #steps} (the client's async
 * executor, serialised: see {@link Contention}); replies and watch events arrive on ZooKeeper's
 * thread and only hand the next step over ({@link SpeedPaths}), so {@link #result} never completes
 * there. Fields marked "guarded" are guarded by {@code this}.
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

    /** A ticket's create and the listing sent right behind it. */
    private record Taken(CreatedNode node, List<String> children) {
    }

    private final Contention engine;
    private final byte[] data;
    private final Deadline deadline;
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
     * Guarded: the contenders whose nodes this attempt's ticket was refused to read, null until one is;
     * watched through the folder at once from then on (see {@link Contention#watch}). Forgotten at a
     * new ticket.
     */
    private Set<String> unreadable;

    /**
     * @param grant makes what the caller gets of a ticket that holds
     * @param discard undoes that when the result was completed (timed out, cancelled) meanwhile
     */
    Attempt(Contention engine, byte[] data, Deadline deadline, Executor steps, Function<Granted, R> grant,
            Consumer<R> discard) {
        this.engine = engine;
        this.data = data;
        this.deadline = deadline;
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
        if (!current(from)) {
            return -1;
        }
        phase = next;
        return ++moves;
    }

    /** Whether the attempt has not ended nor, unless {@code move} is -1, moved since move {@code move}. */
    private synchronized boolean current(int move) {
        return !ended() && (move < 0 || move == moves);
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
            // a new place in line: a name refused before may name another node now (a folder made again numbers from 0)
            unreadable = null;
            if (own != null) {
                own.listen(null, null);
                own = null;
            }
            create = engine.createTicket(data);
            creating = create;
            listing = engine.list();
        }
        // a listing that failed shows no node: took() lists again
        then(create.thenCombine(listing.exceptionally(e -> List.of()), Taken::new), (taken, e) -> {
            if (e == null) {
                took(taken.node(), taken.children());
            } else {
                fail(e);
            }
        });
    }

    /** The create returned {@code node}; {@code children} is the listing sent right behind it. */
    private void took(CreatedNode node, List<String> children) {
        Ticket mine;
        int move;
        synchronized (this) {
            if (ended()) {
                // timed out or cancelled while the create was in flight: give the node back
                engine.client().delete().quietly().guaranteed().forPathAsync(node.path());
                return;
            }
            mine = engine.ticketOf(node);
            ticket = mine;
            own = engine.watchOf(mine);
            own.listen(end -> lostOwnNode(mine, end), steps);
            move = moveTo(Phase.LOOKING, -1);
        }
        if (children.contains(mine.name())) {
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
        then(engine.list(), (children, e) -> listed(mine, move, children, e));
    }

    /** Asks the rule about the line the listing of move {@code move} returned. */
    private void listed(Ticket mine, int move, List<String> children, Throwable e) {
        if (!current(move)) {
            return;
        }
        if (e != null && !(Failures.rethrow(e) instanceof NoNodeException)) {
            fail(e);
            return;
        }
        // no folder (deleted by an operator, or reaped as an empty container): our node went with it
        List<String> line = e == null ? children : List.of();
        if (e == null && leftBehind(mine, move)) {
            return;
        }
        decideOn(mine, move, line, false);
    }

    /**
     * Acts on what the rule says of {@code line}, the reply to move {@code move}'s listing.
     *
     * @param folderWatched whether that listing set a child watch on the folder (see
     *     {@link Contention#watch}): a wait for a contender this attempt may not read then needs no
     *     other watch, that one wakes it at the line's next change
     */
    private void decideOn(Ticket mine, int move, List<String> line, boolean folderWatched) {
        Decision decision;
        try {
            decision = engine.decide(line, mine.name());
        } catch (RuntimeException ruleFailed) {
            fail(ruleFailed);
            return;
        }
        if (decision == null) {
            takeTicket(move); // our node vanished (session expired, deleted, its folder deleted): back of the line
        } else if (decision.holds()) {
            hold(mine, move);
        } else if (deadline.hasPassed()) {
            // past the deadline (a zero timeout: this was its one look) and not holding: give up (abandon deletes it)
            result.complete(null);
        } else if (folderWatched && isUnreadable(decision.watch())) {
            return; // waiting, through the folder's watch this listing set
        } else {
            waitFor(mine, move, decision);
        }
    }

    /**
     * WAITING: watches the one node the rule named ({@link Contention#watch}, which leaves no watch
     * behind on a node already gone); its deletion wakes exactly this contender, who holds at once if
     * the rule said that node was the last obstacle, or else looks again. A node this client may not
     * read is watched through the folder instead, which wakes it at every change of the line; the
     * refusal is remembered, so later waits on that node go to the folder without asking again, and
     * the listing that sets the folder's watch is the next look (one listing per wake).
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
        boolean refusedBefore;
        synchronized (this) {
            watch = own;
            move = moveTo(Phase.WAITING, listedMove);
            refusedBefore = isUnreadable(decision.watch());
        }
        if (move < 0) {
            return;
        }
        if (watch != null && !watch.armed()) {
            watch.arm();
        }
        engine.watch(decision.watch(), refusedBefore, steps, result::completeExceptionally, (seen, line, e) -> {
            if (!current(move)) {
                return;
            }
            if (e != null) {
                fail(e);
                return;
            }
            switch (seen) {
                case SET -> leftBehind(mine, move); // watching: the node's deletion moves on
                case CHANGED -> look(); // still there, and the watch is used up: look again
                case LINE_CHANGED -> waitFor(mine, move, decision); // the folder's listing, with a new watch, is the look
                case LISTED -> {
                    if (!leftBehind(mine, move)) {
                        decideOn(mine, move, line, true);
                    }
                }
                case EXPIRED -> giveBack(move);
                case REFUSED -> refused(decision.watch()); // the folder is watched instead: what it sees follows
                case GONE -> {
                    if (decision.holdsWhenWatchedGoes()) {
                        hold(mine, move); // the rule said it was the last obstacle
                    } else {
                        look();
                    }
                }
            }
        });
    }

    /**
     * ENDED, holding: the result completes on this attempt's executor, never on ZooKeeper's thread.
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

    /** Whether this attempt was refused the read of contender {@code name}'s node. */
    private synchronized boolean isUnreadable(String name) {
        return unreadable != null && unreadable.contains(name);
    }

    /** Remembers that this attempt may not read the node of contender {@code name}. */
    private synchronized void refused(String name) {
        if (unreadable == null) {
            unreadable = new HashSet<>();
        }
        unreadable.add(name);
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
        // an expired session's node may outlive it on the servers (see giveBack)
        startOver(OwnNodeWatch.EXPIRED.equals(end) ? mine : null, move);
    }

    /**
     * Whether the client has left the session that owns our node (it gave up on it, suspended past
     * the session timeout, and a retried step ran on the new session). No watch of ours covers that
     * node any more: give it back and take a ticket of the current session.
     */
    private boolean leftBehind(Ticket mine, int move) {
        if (engine.client().sessionId() == mine.sessionId()) {
            return false;
        }
        startOver(mine, move);
        return true;
    }

    /**
     * Our session ended: take a new ticket, and delete the old node in case it outlives the
     * session on the servers (the client gave up on the session before the servers expired it),
     * so it does not hold up the line until then.
     *
     * @param move the move this one follows from (-1: whatever the attempt is in)
     */
    private void giveBack(int move) {
        Ticket old;
        int from;
        synchronized (this) {
            if (!current(move)) {
                return;
            }
            old = ticket;
            from = moves;
        }
        startOver(old, from);
    }

    /** Any phase --own ticket lost--> TAKING, giving {@code lost} (if not null) back first. */
    private void startOver(Ticket lost, int move) {
        if (lost != null) {
            engine.release(lost);
        }
        takeTicket(move);
    }

    private void fail(Throwable e) {
        Throwable cause = Failures.rethrow(e);
        if (cause instanceof CancellationException) {
            return;
        }
        if (cause instanceof SessionExpiredException) {
            giveBack(-1); // the session is gone; the client is building a new one
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

    /** Runs {@code step} on this attempt's executor once {@code reply} completes; a closed client ends the attempt. */
    private <T> void then(CompletableFuture<T> reply, BiConsumer<T, Throwable> step) {
        SpeedPaths.handOver(reply, steps, result::completeExceptionally, step);
    }
}

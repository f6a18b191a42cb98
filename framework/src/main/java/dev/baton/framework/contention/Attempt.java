package dev.baton.framework.contention;

import dev.baton.framework.CreatedNode;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.internal.Futures;
import dev.baton.framework.internal.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * One acquisition's forward steps, a small state machine driven by replies and watch events: take
 * a ticket (create, with the listing sent right behind it), list the line, ask the rule, watch the
 * one node it names, and hold — handing the caller what {@code grant} makes of the ticket. What the
 * attempt is in, and how it starts over with a new ticket or ends, is {@link AttemptState}'s; the
 * runners that start it and wait for {@link #result} are {@link AttemptRunners}.
 *
 * <p>Its steps run one at a time on {@code steps}: never on ZooKeeper's thread, where replies (see
 * {@link dev.baton.framework.internal.WakeUps}) and the engine's own watches only hand the next
 * step over.
 */
final class Attempt<R> extends AttemptState<R> {
    /** A ticket that held, and the engine's watch on its node. */
    record Granted(Ticket ticket, OwnNodeWatch watch) {
    }

    private final byte[] data;
    private final Duration timeout;
    private final Function<Granted, R> grant;
    private final Consumer<R> discard;

    /**
     * @param grant makes what the caller gets of a ticket that holds
     * @param discard undoes that when the result was completed (timed out, cancelled) meanwhile
     */
    Attempt(Contention engine, byte[] data, Duration timeout, Executor steps, Function<Granted, R> grant,
            Consumer<R> discard) {
        super(engine, steps);
        this.data = data;
        this.timeout = timeout;
        this.grant = grant;
        this.discard = discard;
    }

    /**
     * Sends the create and, right behind it, the listing. The servers answer a session's
     * requests in order, so the listing comes back just after the create, showing our node:
     * one round trip for both, and one wake-up of the step's thread for the two replies.
     */
    @Override
    void takeTicket() {
        CompletableFuture<CreatedNode> create;
        CompletableFuture<List<String>> listing;
        synchronized (this) {
            if (result.isDone()) {
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
        int gen;
        synchronized (this) {
            if (result.isDone()) {
                // timed out or cancelled while the create was in flight: give the node back
                engine.client().delete().quietly().guaranteed().forPathAsync(node.path());
                return;
            }
            mine = new Ticket(node.path(), Contenders.sequence(node.name(), engine.markers()), node.stat().getCzxid(),
                node.stat().getEphemeralOwner());
            ticket = mine;
            own = new OwnNodeWatch(engine.ops(), mine.path());
            own.listen(end -> lostOwnNode(mine, end), steps);
            gen = ++generation;
        }
        List<String> children = listing.isCompletedExceptionally() ? null : listing.join();
        if (children != null && children.contains(mine.name())) {
            listed(mine, gen, children, null);
        } else {
            check(); // the listing went before the create took (a retry, a folder made first): list again
        }
    }

    /** Lists the line and asks the rule. */
    private void check() {
        Ticket mine;
        int gen;
        synchronized (this) {
            if (result.isDone() || ticket == null) {
                return;
            }
            mine = ticket;
            gen = ++generation;
        }
        then(engine.ops().getChildren().forPathAsync(engine.dir()), (children, e) -> listed(mine, gen, children, e));
    }

    private void listed(Ticket mine, int gen, List<String> children, Throwable e) {
        if (!current(gen)) {
            return;
        }
        if (e != null && Futures.rethrow(e) instanceof NoNodeException) {
            // the folder was deleted (by an operator, or reaped as an empty container)
            // and our node with it: back of a new line, like any other lost ticket
            lostTicket(gen);
            return;
        }
        if (e != null) {
            fail(e);
            return;
        }
        if (leftBehind(mine, gen)) {
            return;
        }
        List<String> ordered = Contenders.inOrder(children, engine.markers());
        int index = ordered.indexOf(mine.name());
        if (index < 0) {
            lostTicket(gen);
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
            complete(mine, gen);
        } else if (timeout != null && timeout.isZero()) {
            // a zero timeout asked for one look, and the ticket does not hold: give up (abandon deletes it)
            result.complete(null);
        } else {
            watch(mine, gen, decision);
        }
    }

    /**
     * Waits for the one node the rule named; its deletion wakes exactly this contender. Before
     * the first wait, our own node gets its watch: its deletion (by an operator, with its
     * folder) or its session's end is then heard before any later change — watch events come
     * in the order the servers made the changes — so a hand-off can be taken without listing,
     * and the hold's monitor inherits the watch. (A ticket that holds at its first look never
     * waits, and is spared the request: see {@link Holding}.)
     */
    private void watch(Ticket mine, int gen, Decision decision) {
        OwnNodeWatch watch;
        synchronized (this) {
            watch = own;
        }
        if (watch != null && !watch.armed()) {
            watch.arm();
        }
        Watcher watcher = watcher(event -> onEvent(event, mine, gen, decision));
        String watched = Paths.join(engine.dir(), decision.watch());
        then(engine.ops().checkExists().usingWatcher(watcher).forPathAsync(watched), (stat, e) -> {
            if (!current(gen)) {
                return;
            }
            if (e != null) {
                fail(e);
            } else if (stat == null) {
                proceed(mine, gen, decision);
            } else {
                leftBehind(mine, gen);
            }
        });
    }

    /**
     * Holds: the result completes on this attempt's executor — the async executor, or the
     * waiting caller — never on ZooKeeper's thread.
     */
    private void complete(Ticket mine, int gen) {
        if (leftBehind(mine, gen)) {
            return;
        }
        OwnNodeWatch watch;
        synchronized (this) {
            if (gen != generation || result.isDone()) {
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

    private void onEvent(WatchedEvent event, Ticket mine, int gen, Decision decision) {
        synchronized (this) {
            if (gen != generation || result.isDone()) {
                return;
            }
        }
        if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
            proceed(mine, gen, decision);
        } else if (event.getState() == Watcher.Event.KeeperState.Expired) {
            giveBack(gen);
        } else if (event.getType() != Watcher.Event.EventType.None) {
            // the node changed but is still there: the watch is used up, so look again
            check();
        }
    }

    /** The watched node is gone. */
    private void proceed(Ticket mine, int gen, Decision decision) {
        synchronized (this) {
            if (gen != generation || result.isDone()) {
                return;
            }
        }
        if (decision.holdsWhenWatchedGoes()) {
            complete(mine, gen);
        } else {
            check();
        }
    }
}

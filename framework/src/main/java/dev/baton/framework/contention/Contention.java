package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.internal.Futures;
import dev.baton.framework.internal.Paths;
import dev.baton.framework.internal.SerialExecutor;
import dev.baton.framework.internal.WakeUps;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * The contention engine: "take a ticket, watch your predecessor", once, for every recipe.
 *
 * <p>Algorithm. Create an ephemeral sequential node in the recipe's folder (protected, so a lost
 * reply never leaves two), and send the listing of the folder right behind it (one round trip for
 * both); put the recipe's nodes in sequence order ({@link Contenders}) and ask the
 * {@link ContentionRule} whether this node holds. If not, watch our own node and the one node the
 * rule names, and wait. When that node goes,
 * list again; or, if the rule said its deletion is the last obstacle, hold at once without
 * listing (sequence numbers only grow, so nobody can have joined ahead, and our own watch would
 * have told us first had our node gone).
 *
 * <p>Threads. An attempt is a state machine whose steps run one at a time: for {@link #acquire},
 * on the client's async executor (no thread waits); for {@link #acquireBlocking}, on the calling
 * thread, which runs each step as its reply or event arrives. Replies and the engine's watch
 * events reach the steps straight from ZooKeeper's event thread, which only hands them over
 * ({@link WakeUps}): one thread wake-up per round trip, as with ZooKeeper's own blocking calls,
 * instead of passing through the client's async and event executors. The rule runs on the step's
 * thread; the caller's future completes on the async executor, never on ZooKeeper's thread.
 *
 * <p>Guarantees and caveats. On timeout, cancellation or failure the engine deletes its own node
 * (in the background if the connection is down), so an abandoned attempt never blocks the line.
 * If the node disappears while waiting (session expired, deleted by an operator, its folder
 * deleted or reaped) the engine takes a new ticket — at the back of the line — as long as the
 * deadline allows. Being told "you hold" is the start of a hold, not a guarantee for its duration:
 * watch it with a {@link Holding} ({@link #acquireHold} does, reusing the engine's own watch).
 */
public final class Contention {
    private final BatonClient client;
    /** The client as the engine's requests see it: replies complete on ZooKeeper's thread, see {@link WakeUps}. */
    private final BatonClient ops;
    private final String dir;
    private final String marker;
    private final Set<String> markers;
    private final ContentionRule rule;
    private final boolean sessionProtection;
    /** Arms the node watches of holds granted at the first look once they last (see {@link Holding}). */
    private final LateWatches lateWatches;

    private Contention(BatonClient client, String dir, String marker, Set<String> markers, ContentionRule rule,
                       boolean sessionProtection) {
        this.client = Objects.requireNonNull(client, "client");
        this.ops = WakeUps.repliesInPlace(client);
        this.dir = Paths.validate("contention", dir, false);
        this.marker = Objects.requireNonNull(marker, "marker");
        this.markers = Set.copyOf(markers);
        this.rule = Objects.requireNonNull(rule, "rule");
        this.sessionProtection = sessionProtection;
        this.lateWatches = new LateWatches(client.asyncExecutor());
        if (dir.equals("/")) {
            throw new IllegalArgumentException("a recipe needs its own folder, not the root");
        }
    }

    /**
     * An engine for nodes named {@code <protection><marker><sequence>} in {@code dir}, ordered and
     * judged by {@code rule}. An empty marker names nodes {@code <protection><sequence>} (the
     * ZooKeeper recipes' {@code x-<sessionId>-<sequence>}); such an engine needs
     * {@code withMarkers(Set.of("", "-"))} to find its nodes, sorted by the digits after the last
     * {@code '-'}.
     */
    public static Contention of(BatonClient client, String dir, String marker, ContentionRule rule) {
        return new Contention(client, dir, marker, Set.of(marker), rule, false);
    }

    /** The same engine, counting nodes with any of {@code allMarkers} as contenders (read/write locks). */
    public Contention withMarkers(Set<String> allMarkers) {
        if (!allMarkers.contains(marker)) {
            throw new IllegalArgumentException("markers " + allMarkers + " must include this engine's marker '" + marker + "'");
        }
        return new Contention(client, dir, marker, allMarkers, rule, sessionProtection);
    }

    /**
     * The same engine, naming nodes {@code x-<sessionId>-<marker><sequence>} (the ZooKeeper
     * recipes' protection) instead of {@code _c_<uuid>-<marker><sequence>}.
     */
    public Contention withSessionProtection() {
        return new Contention(client, dir, marker, markers, rule, true);
    }

    /** The same engine with another rule (a read lock and a write lock share a folder). */
    public Contention withRule(ContentionRule otherRule) {
        return new Contention(client, dir, marker, markers, otherRule, sessionProtection);
    }

    public BatonClient client() {
        return client;
    }

    public String dir() {
        return dir;
    }

    /**
     * Takes a ticket and waits for it to hold.
     *
     * @param data the node's data (participant id, ...)
     * @param timeout how long to wait, or null for no limit. {@link Duration#ZERO} means "look
     *     once": take a ticket, list the line, and give up at once unless the ticket holds (a
     *     try-lock). Any other timeout is a deadline that may cut the attempt at any step.
     * @return completes (on the client's async executor) with the held ticket, or with null when
     *     {@code timeout} passed first. Cancelling it abandons the attempt and deletes its node.
     */
    public CompletableFuture<Ticket> acquire(byte[] data, Duration timeout) {
        checkArguments(data, timeout);
        return startAsync(data, timeout, Contention::ticketOnly, ticket -> { });
    }

    /**
     * Blocking {@link #acquire}: returns the held ticket, or null on timeout. The calling thread
     * runs the attempt itself (see the class comment). An interrupt abandons the attempt (its
     * node is deleted) and is rethrown.
     */
    public Ticket acquireBlocking(byte[] data, Duration timeout) throws InterruptedException {
        checkArguments(data, timeout);
        return runBlocking(data, timeout, Contention::ticketOnly, this::release);
    }

    /**
     * {@link #acquire}, and the hold it gives, watched under the client's error policy from its
     * first moment; when the attempt had to wait, through the watch the engine already set on its
     * own node (no request of its own, see {@link Holding}). Cancelling the future abandons the
     * attempt, or gives back a hold that arrived meanwhile.
     */
    public CompletableFuture<TicketHold> acquireHold(byte[] data, Duration timeout) {
        checkArguments(data, timeout);
        return startAsync(data, timeout, this::holdOf, TicketHold::stopMonitoring);
    }

    /** Blocking {@link #acquireHold}: the hold, or null on timeout. An interrupt leaves nothing behind and is rethrown. */
    public TicketHold acquireHoldBlocking(byte[] data, Duration timeout) throws InterruptedException {
        checkArguments(data, timeout);
        return runBlocking(data, timeout, this::holdOf, TicketHold::delete);
    }

    /** Gives the place up: deletes the ticket's node, in the background if the connection is down. */
    public CompletableFuture<Void> release(Ticket ticket) {
        return client.delete().quietly().guaranteed().forPathAsync(ticket.path());
    }

    /** The contenders' node names in line order, first holder first. */
    public CompletableFuture<List<String>> contenders() {
        return client.getChildren().forPathAsync(dir)
            .thenApply(children -> Contenders.inOrder(children, markers))
            .exceptionally(e -> {
                if (Futures.rethrow(e) instanceof NoNodeException) {
                    return List.of();
                }
                throw Futures.rethrow(e);
            });
    }

    /** What the rule says for {@code ticket} given the line right now (for inspection and tests). */
    public Decision decide(List<String> ordered, Ticket ticket) {
        int mine = ordered.indexOf(ticket.name());
        if (mine < 0) {
            throw new IllegalArgumentException(ticket.name() + " is not in line " + ordered);
        }
        return rule.decide(ordered, mine);
    }

    private static void checkArguments(byte[] data, Duration timeout) {
        Objects.requireNonNull(data, "data");
        if (timeout != null && timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
    }

    /** A ticket that held, and the engine's watch on its node. */
    private record Granted(Ticket ticket, OwnNodeWatch watch) {
    }

    private static Ticket ticketOnly(Granted granted) {
        granted.watch().listen(null, null); // nobody monitors a bare ticket through the engine
        return granted.ticket();
    }

    private TicketHold holdOf(Granted granted) {
        return TicketHold.granted(this, granted.ticket(), granted.watch(), lateWatches);
    }

    /** An attempt whose steps run, one at a time, on the client's async executor. */
    private <R> CompletableFuture<R> startAsync(byte[] data, Duration timeout, Function<Granted, R> grant, Consumer<R> discard) {
        Attempt<R> attempt = new Attempt<>(data, timeout, new SerialExecutor(client.asyncExecutor()), grant, discard);
        if (timeout != null && !timeout.isZero()) {
            CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS, client.asyncExecutor())
                .execute(() -> attempt.result.complete(null));
        }
        attempt.begin();
        return attempt.result;
    }

    /**
     * An attempt whose steps the calling thread runs while it waits: a reply or an event only
     * wakes it. {@code giveBack} returns what was granted just as an interrupt arrived.
     */
    private <R> R runBlocking(byte[] data, Duration timeout, Function<Granted, R> grant, Consumer<R> giveBack)
        throws InterruptedException {
        CallerSteps steps = new CallerSteps(new SerialExecutor(client.asyncExecutor()));
        Attempt<R> attempt = new Attempt<>(data, timeout, steps, grant, giveBack);
        Long deadline = timeout == null || timeout.isZero() ? null : System.nanoTime() + timeout.toNanos();
        try {
            attempt.begin();
            if (!steps.runUntil(attempt.result::isDone, deadline)) {
                attempt.result.complete(null); // timed out: abandoning deletes the node (unless it held just now)
            }
        } catch (InterruptedException e) {
            if (!attempt.result.cancel(true) && !attempt.result.isCompletedExceptionally()) {
                R arrived = attempt.result.getNow(null);
                if (arrived != null) {
                    giveBack.accept(arrived);
                }
            }
            throw e;
        } finally {
            steps.close();
        }
        try {
            return attempt.result.join();
        } catch (CompletionException e) {
            throw Futures.rethrow(e.getCause());
        }
    }

    /**
     * One acquisition: a small state machine driven by replies and watch events. Its steps run
     * one at a time on {@code steps}: never on ZooKeeper's thread, where replies (see
     * {@link WakeUps}) and the engine's own watches only hand the next step over.
     */
    private final class Attempt<R> {
        private final byte[] data;
        private final Duration timeout;
        private final Executor steps;
        private final Function<Granted, R> grant;
        private final Consumer<R> discard;
        final CompletableFuture<R> result = new CompletableFuture<>();
        private CompletableFuture<CreatedNode> creating;
        private Ticket ticket;
        private OwnNodeWatch own;
        private int generation;

        /**
         * @param grant makes what the caller gets of a ticket that holds
         * @param discard undoes that when the result was completed (timed out, cancelled) meanwhile
         */
        Attempt(byte[] data, Duration timeout, Executor steps, Function<Granted, R> grant, Consumer<R> discard) {
            this.data = data;
            this.timeout = timeout;
            this.steps = steps;
            this.grant = grant;
            this.discard = discard;
        }

        void begin() {
            result.whenComplete((held, e) -> {
                if (held == null) {
                    abandon();
                }
            });
            takeTicket();
        }

        /** Runs {@code step} on this attempt's executor once {@code reply} completes. */
        private <T> void then(CompletableFuture<T> reply, BiConsumer<T, Throwable> step) {
            reply.whenComplete((value, e) -> steps.execute(() -> step.accept(value, e)));
        }

        /** A watcher that only hands the event to this attempt's executor. */
        private Watcher watcher(Watcher step) {
            return (WakeUps.DirectWatcher) event -> steps.execute(() -> step.process(event));
        }

        private synchronized boolean current(int gen) {
            return gen == generation && !result.isDone();
        }

        /**
         * Sends the create and, right behind it, the listing. The servers answer a session's
         * requests in order, so the listing comes back just after the create, showing our node:
         * one round trip for both, and one wake-up of the step's thread for the two replies.
         */
        private void takeTicket() {
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
                var builder = ops.create()
                    .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                    .creatingParentContainersIfNeeded();
                builder = sessionProtection ? builder.withSessionProtection() : builder.withProtection();
                create = builder.forPathWithStatAsync(Paths.join(dir, marker), data);
                creating = create;
                listing = ops.getChildren().forPathAsync(dir);
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
                    client.delete().quietly().guaranteed().forPathAsync(node.path());
                    return;
                }
                mine = new Ticket(node.path(), Contenders.sequence(node.name(), markers), node.stat().getCzxid(),
                    node.stat().getEphemeralOwner());
                ticket = mine;
                own = new OwnNodeWatch(ops, mine.path());
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
            then(ops.getChildren().forPathAsync(dir), (children, e) -> listed(mine, gen, children, e));
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
            List<String> ordered = Contenders.inOrder(children, markers);
            int index = ordered.indexOf(mine.name());
            if (index < 0) {
                lostTicket(gen);
                return;
            }
            Decision decision;
            try {
                decision = rule.decide(ordered, index);
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
            then(ops.checkExists().usingWatcher(watcher).forPathAsync(Paths.join(dir, decision.watch())), (stat, e) -> {
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

        /** Our own node is gone (its watch said so): take a new ticket. */
        private void lostOwnNode(Ticket mine, String end) {
            synchronized (this) {
                if (ticket != mine || result.isDone()) {
                    return;
                }
                generation++;
            }
            if (OwnNodeWatch.EXPIRED.equals(end)) {
                release(mine); // it may outlive the session the client gave up on (see giveBack)
            }
            takeTicket();
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

        /**
         * Whether the client has left the session that owns our node: it gave up on it (suspended
         * past the session timeout) and the retry loop finished a step on the new session. No watch
         * of ours covers that node any more and it goes whenever the servers expire its session:
         * give it back and take a ticket of the current session. (With a watch already set when the
         * session went, the Expired event does the same.)
         */
        private boolean leftBehind(Ticket mine, int gen) {
            if (client.sessionId() == mine.sessionId()) {
                return false;
            }
            release(mine);
            lostTicket(gen);
            return true;
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

        /**
         * Our session ended: take a new ticket, and delete the old node in case it outlives the
         * session on the servers (the client gave up on the session before the servers expired it),
         * so it does not hold up the line until then.
         */
        private void giveBack(int gen) {
            Ticket old;
            synchronized (this) {
                if (gen != generation || result.isDone()) {
                    return;
                }
                old = ticket;
            }
            if (old != null) {
                release(old);
            }
            lostTicket(gen);
        }

        /** Our node vanished while we waited (session expired, or deleted by someone): take a new ticket. */
        private void lostTicket(int gen) {
            synchronized (this) {
                if (gen != generation || result.isDone()) {
                    return;
                }
                generation++;
            }
            takeTicket();
        }

        private void fail(Throwable e) {
            Throwable cause = Futures.rethrow(e);
            if (cause instanceof CancellationException) {
                return;
            }
            if (cause instanceof SessionExpiredException) {
                // the session is gone; the client is building a new one
                int gen;
                synchronized (this) {
                    gen = generation;
                }
                giveBack(gen);
                return;
            }
            result.completeExceptionally(cause);
        }

        /** Timed out, cancelled or failed: delete our node (or the one being created). */
        private void abandon() {
            Ticket abandoned;
            CompletableFuture<CreatedNode> inFlight;
            synchronized (this) {
                generation++;
                abandoned = ticket;
                inFlight = creating;
                if (own != null) {
                    own.listen(null, null);
                }
            }
            if (abandoned != null) {
                release(abandoned);
            } else if (inFlight != null) {
                inFlight.cancel(false);
            }
        }
    }

    /** Thrown by recipes built on the engine when an acquisition failed for a reason other than time. */
    public static BatonException failure(String what, Throwable cause) {
        return new BatonException(what + ": " + cause.getMessage(), cause);
    }
}

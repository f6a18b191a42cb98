package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.internal.Futures;
import dev.baton.framework.internal.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * The contention engine: "take a ticket, watch your predecessor", once, for every recipe.
 *
 * <p>Algorithm. Create an ephemeral sequential node in the recipe's folder (protected, so a lost
 * reply never leaves two); list the folder and put the recipe's nodes in sequence order
 * ({@link Contenders}); ask the {@link ContentionRule} whether this node holds. If not, set a watch
 * on the one node the rule names and wait — no thread is parked, the watch drives the next step.
 * When that node goes, list again; or, if the rule said its deletion is the last obstacle, hold
 * at once without listing (sequence numbers only grow, so nobody can have joined ahead).
 *
 * <p>Guarantees and caveats. On timeout, cancellation or failure the engine deletes its own node
 * (in the background if the connection is down), so an abandoned attempt never blocks the line.
 * If the node disappears while waiting (session expired, deleted by an operator, its folder
 * deleted or reaped) the engine takes a new ticket — at the back of the line — as long as the deadline allows. Being told
 * "you hold" is the start of a hold, not a guarantee for its duration: watch the session with a
 * {@link Holding}.
 */
public final class Contention {
    private static final byte[] NO_DATA = new byte[0];

    private final BatonClient client;
    private final String dir;
    private final String marker;
    private final Set<String> markers;
    private final ContentionRule rule;
    private final boolean sessionProtection;

    private Contention(BatonClient client, String dir, String marker, Set<String> markers, ContentionRule rule,
                       boolean sessionProtection) {
        this.client = Objects.requireNonNull(client, "client");
        this.dir = Paths.validate("contention", dir, false);
        this.marker = Objects.requireNonNull(marker, "marker");
        this.markers = Set.copyOf(markers);
        this.rule = Objects.requireNonNull(rule, "rule");
        this.sessionProtection = sessionProtection;
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
     * @return completes with the held ticket, or with null when {@code timeout} passed first.
     *     Cancelling it abandons the attempt and deletes its node.
     */
    public CompletableFuture<Ticket> acquire(byte[] data, Duration timeout) {
        Objects.requireNonNull(data, "data");
        if (timeout != null && timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        return new Attempt(data, timeout).start();
    }

    /**
     * Blocking {@link #acquire}: returns the held ticket, or null on timeout. An interrupt abandons
     * the attempt (its node is deleted) and is rethrown.
     */
    public Ticket acquireBlocking(byte[] data, Duration timeout) throws InterruptedException {
        CompletableFuture<Ticket> attempt = acquire(data, timeout);
        try {
            return attempt.get();
        } catch (InterruptedException e) {
            attempt.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw Futures.rethrow(e.getCause());
        }
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

    /** One acquisition: a small state machine driven by replies and watch events. */
    private final class Attempt {
        private final byte[] data;
        private final Duration timeout;
        private final CompletableFuture<Ticket> result = new CompletableFuture<>();
        private CompletableFuture<CreatedNode> creating;
        private Ticket ticket;
        private boolean watchingSelf;
        private int generation;

        Attempt(byte[] data, Duration timeout) {
            this.data = data;
            this.timeout = timeout;
        }

        CompletableFuture<Ticket> start() {
            if (timeout != null && !timeout.isZero()) {
                CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS, client.asyncExecutor())
                    .execute(() -> result.complete(null));
            }
            result.whenComplete((held, e) -> {
                if (held == null) {
                    abandon();
                }
            });
            takeTicket();
            return result;
        }

        private synchronized void takeTicket() {
            if (result.isDone()) {
                return;
            }
            ticket = null;
            var create = client.create()
                .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                .creatingParentContainersIfNeeded();
            create = sessionProtection ? create.withSessionProtection() : create.withProtection();
            creating = create.forPathWithStatAsync(Paths.join(dir, marker), data);
            creating.whenComplete((node, e) -> {
                if (e != null) {
                    fail(e);
                } else {
                    took(node);
                }
            });
        }

        private void took(CreatedNode node) {
            synchronized (this) {
                if (result.isDone()) {
                    // timed out or cancelled while the create was in flight: give the node back
                    client.delete().quietly().guaranteed().forPathAsync(node.path());
                    return;
                }
                watchingSelf = false;
                ticket = new Ticket(node.path(), Contenders.sequence(node.name(), markers), node.stat().getCzxid(),
                    node.stat().getEphemeralOwner());
            }
            check();
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
            client.getChildren().forPathAsync(dir).whenComplete((children, e) -> {
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
                Decision decision = rule.decide(ordered, index);
                if (decision.holds()) {
                    complete(mine, gen);
                } else if (timeout != null && timeout.isZero()) {
                    // a zero timeout asked for one look, and the ticket does not hold: give up (abandon deletes it)
                    result.complete(null);
                } else {
                    watch(mine, gen, decision);
                }
            });
        }

        /** Waits for the one node the rule named; its deletion wakes exactly this contender. */
        private void watch(Ticket mine, int gen, Decision decision) {
            if (decision.holdsWhenWatchedGoes()) {
                watchSelf(mine);
            }
            Watcher watcher = event -> onEvent(event, mine, gen, decision);
            client.checkExists().usingWatcher(watcher).forPathAsync(Paths.join(dir, decision.watch())).whenComplete((stat, e) -> {
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
         * Taking the hand-off without listing trusts that our own node still exists; watch it
         * (once per ticket) so a deletion by someone else, or the session's end, is noticed first
         * — watch events arrive in the order the servers applied the changes.
         */
        private void watchSelf(Ticket mine) {
            synchronized (this) {
                if (watchingSelf || ticket != mine) {
                    return;
                }
                watchingSelf = true;
            }
            Watcher self = event -> {
                if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
                    lostOwnNode(mine);
                } else if (event.getState() == Watcher.Event.KeeperState.Expired) {
                    release(mine); // it may outlive the session the client gave up on (see giveBack)
                    lostOwnNode(mine);
                }
            };
            client.checkExists().usingWatcher(self).forPathAsync(mine.path()).whenComplete((stat, e) -> {
                if (e == null && stat == null) {
                    lostOwnNode(mine);
                }
            });
        }

        private void lostOwnNode(Ticket mine) {
            synchronized (this) {
                if (ticket != mine || result.isDone()) {
                    return;
                }
                generation++;
            }
            takeTicket();
        }

        /**
         * Holds: completes on the client's async executor, never on the event thread a watch runs
         * on. After a listing the reply already runs there: complete in place rather than pay for
         * another hand-off between threads on every acquisition.
         */
        private void complete(Ticket mine, int gen) {
            if (leftBehind(mine, gen)) {
                return;
            }
            Executor async = client.asyncExecutor();
            if (async instanceof ForkJoinPool pool && ForkJoinTask.getPool() == pool) {
                result.complete(mine);
            } else {
                async.execute(() -> result.complete(mine));
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

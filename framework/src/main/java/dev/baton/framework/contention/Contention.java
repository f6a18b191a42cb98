package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.NoAuthException;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.internal.LeaderContact;
import dev.baton.framework.internal.Paths;
import dev.baton.framework.internal.SerialExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.zookeeper.CreateMode;
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
 * <p>Threads. An attempt is one state machine ({@link Attempt}, its phases TAKING, LOOKING,
 * WAITING, ENDED) whose steps run one at a time on the client's async executor (no thread waits;
 * {@link #acquireBlocking} waits for the same attempt). The rule runs on the step's thread; the
 * caller's future completes on the async executor, never on ZooKeeper's thread. The shortcuts that
 * make this fast (replies handled on ZooKeeper's thread, the delayed node watch of holds granted at
 * the first look) are in {@link SpeedPaths}, with what each gains.
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
    /** The client as the engine's requests see it: replies complete on ZooKeeper's thread (see {@link SpeedPaths}). */
    private final BatonClient ops;
    private final String dir;
    /** Names an acquisition's steps in log lines: built once per engine, not per acquisition. */
    private final String acquisitionName;
    private final String marker;
    private final Set<String> markers;
    private final ContentionRule rule;
    private final boolean sessionProtection;
    /** Arms the node watches of holds granted at the first look once they last (see {@link Holding}). */
    private final SpeedPaths.LateWatches lateWatches;

    private Contention(BatonClient client, String dir, String marker, Set<String> markers, ContentionRule rule,
                       boolean sessionProtection) {
        this.client = Objects.requireNonNull(client, "client");
        this.ops = SpeedPaths.repliesInPlace(client);
        this.dir = Paths.validateRecipe("Contention", dir, false);
        this.acquisitionName = "an acquisition in " + this.dir;
        this.marker = Objects.requireNonNull(marker, "marker");
        this.markers = Set.copyOf(markers);
        this.rule = Objects.requireNonNull(rule, "rule");
        this.sessionProtection = sessionProtection;
        this.lateWatches = new SpeedPaths.LateWatches(client.asyncExecutor());
    }

    /**
     * {@return an engine for nodes named {@code <protection><marker><sequence>} in {@code dir}, ordered and
     * judged by {@code rule}} An empty marker names nodes {@code <protection><sequence>} (the
     * ZooKeeper recipes' {@code x-<sessionId>-<sequence>}); such an engine needs
     * {@code withMarkers(Set.of("", "-"))} to find its nodes, sorted by the digits after the last
     * {@code '-'}.
     *
     * @param client the client whose session the nodes belong to
     * @param dir the recipe's folder
     * @param marker what names this engine's nodes, such as {@code "lock-"}
     * @param rule decides, from the sorted line, whether a contender holds or whom it waits for
     */
    public static Contention of(BatonClient client, String dir, String marker, ContentionRule rule) {
        return new Contention(client, dir, marker, Set.of(marker), rule, false);
    }

    /**
     * {@return the same engine, counting nodes with any of {@code allMarkers} as contenders (read/write
     * locks)}
     *
     * @param allMarkers every marker of the recipe's nodes
     */
    public Contention withMarkers(Set<String> allMarkers) {
        if (!allMarkers.contains(marker)) {
            throw new IllegalArgumentException("markers " + allMarkers + " must include this engine's marker '" + marker + "'");
        }
        return new Contention(client, dir, marker, allMarkers, rule, sessionProtection);
    }

    /**
     * The same engine, naming nodes {@code x-<sessionId>-<marker><sequence>} (the ZooKeeper
     * recipes' protection) instead of {@code _c_<uuid>-<marker><sequence>}. Each node's data then
     * starts with its create's mark ({@link dev.baton.framework.CreateBuilder#withSessionProtection()}),
     * so that two engines of one client in one folder never take each other's node.
     *
     * @return the same engine, with session protection
     */
    public Contention withSessionProtection() {
        return new Contention(client, dir, marker, markers, rule, true);
    }

    /**
     * {@return the same engine with another rule (a read lock and a write lock share a folder)}
     *
     * @param otherRule the rule of the other kind of contender
     */
    public Contention withRule(ContentionRule otherRule) {
        return new Contention(client, dir, marker, markers, otherRule, sessionProtection);
    }

    /** {@return the client whose session the nodes belong to} */
    public BatonClient client() {
        return client;
    }

    /** {@return the recipe's folder} */
    public String dir() {
        return dir;
    }

    // ---- the engine's requests, for Attempt: their replies complete on ZooKeeper's thread ----

    /** Sends the create of a ticket: an ephemeral sequential node, protected so a lost reply never leaves two. */
    CompletableFuture<CreatedNode> createTicket(byte[] data) {
        var builder = ops.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).creatingParentContainersIfNeeded();
        builder = sessionProtection ? builder.withSessionProtection() : builder.withProtection();
        return builder.forPathWithStatAsync(Paths.join(dir, marker), data);
    }

    /** {@return the ticket that {@code node}, created by {@link #createTicket}, is} */
    Ticket ticketOf(CreatedNode node) {
        return new Ticket(node.path(), Contenders.sequence(node.name(), markers), node.stat().getCzxid(),
            node.stat().getEphemeralOwner());
    }

    /** {@return a watch on {@code ticket}'s node, not yet set} */
    OwnNodeWatch watchOf(Ticket ticket) {
        return new OwnNodeWatch(ops, ticket.path());
    }

    /** Sends the listing of the line (the folder's children, in no order). */
    CompletableFuture<List<String>> list() {
        return ops.getChildren().forPathAsync(dir);
    }

    /**
     * {@return what the rule says for the contender {@code name} in the listing {@code children}, or null
     * if {@code name} is not in line}
     */
    Decision decide(List<String> children, String name) {
        List<String> ordered = Contenders.inOrder(children, markers);
        int index = ordered.indexOf(name);
        return index < 0 ? null : rule.decide(ordered, index);
    }

    /** What became of a node {@link #watch} watches. */
    enum Seen {
        /** The watch is set: the node is there. */
        SET,
        /** The node is gone: deleted since the watch was set, or already (and then no watch was set). */
        GONE,
        /** The node changed and is still there; the watch is used up. */
        CHANGED,
        /** The session expired. */
        EXPIRED,
        /**
         * This client may not read the node (NoAuth): the folder's children are watched instead, and
         * what that watch sees follows. Told once per watch, before the folder's watch is sent.
         */
        REFUSED,
        /**
         * The folder's listing, sent with its child watch (see {@link #watchLine}): the caller decides
         * on it as on a look's. The watch is set unless the listing failed.
         */
        LISTED,
        /** The folder's children changed (or the folder went); its watch is used up. */
        LINE_CHANGED
    }

    /** What {@link #watch} tells its caller, on the caller's executor. */
    @FunctionalInterface
    interface Sight {
        /**
         * @param seen what became of the watched node, or null with a {@code failure}
         * @param line the folder's children with {@link Seen#LISTED}, else null
         * @param failure why the watch could not be set, else null
         */
        void seen(Seen seen, List<String> line, Throwable failure);
    }

    /**
     * Watches the contender {@code name} and tells {@code then}, on {@code steps}, what the reply
     * ({@code SET}, {@code GONE}, or a failure) and later the watch's event said ({@code GONE},
     * {@code CHANGED}, {@code EXPIRED}). A getData watch,
     * not an exists watch: on a node already gone an exists watch stays registered (client and
     * server) until that path is created again — for a sequential name, never — while a getData
     * watch is set only on a node that exists. Curator does the same. A reply that failed because
     * the client is closed goes to {@code closed} (see {@link SpeedPaths#handOver(CompletableFuture,
     * Executor, Consumer, BiConsumer)}).
     *
     * <p>getData needs READ on the node, and so does exists on a node that is there (ZooKeeper
     * 3.8.4 and 3.9.2 on, ZOOKEEPER-2590). When the contender's node is not readable by this
     * client's identities (its ACL grants READ to its creator only), the getData is refused (NoAuth,
     * and then no watch is set): {@code then} is told {@code REFUSED}, and the folder's children are
     * watched instead ({@link #watchLine}: {@code LISTED} with the line, later {@code LINE_CHANGED}).
     *
     * <p>The caller (an {@link Attempt}) remembers the refusal while it keeps its ticket and passes
     * {@code refusedBefore} when it watches that contender again, after the next change of the
     * line: the folder is then watched at once, and a wake costs no refused getData. That is safe: a
     * contender's ACL is given at its create and its sequential name is not used again while the
     * folder lives, so asking again would be refused again; and were it not (an operator changed the
     * node's ACL), the folder's watch still sees the node go, only it wakes this contender at other
     * changes of the line too. A new ticket forgets the refusals: it may be on a new session with
     * other identities, or in a folder deleted and made again, whose numbers start over so that a
     * remembered name ({@code x-<sessionId>-<seq>}) can name another node.
     *
     * @param refusedBefore whether this attempt was told {@code REFUSED} for {@code name} already
     */
    void watch(String name, boolean refusedBefore, Executor steps, Consumer<ClientClosedException> closed, Sight then) {
        if (refusedBefore) {
            watchLine(steps, closed, then);
            return;
        }
        Watcher watcher = SpeedPaths.handOver(steps, event -> {
            if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
                then.seen(Seen.GONE, null, null);
            } else if (event.getState() == Watcher.Event.KeeperState.Expired) {
                then.seen(Seen.EXPIRED, null, null);
            } else if (event.getType() != Watcher.Event.EventType.None) {
                then.seen(Seen.CHANGED, null, null);
            }
        });
        CompletableFuture<byte[]> reply = ops.getData().usingWatcher(watcher).forPathAsync(Paths.join(dir, name));
        SpeedPaths.handOver(reply, steps, closed, (bytes, e) -> {
            if (e == null) {
                then.seen(Seen.SET, null, null);
            } else if (Failures.rethrow(e) instanceof NoNodeException) {
                then.seen(Seen.GONE, null, null);
            } else if (Failures.rethrow(e) instanceof NoAuthException) {
                then.seen(Seen.REFUSED, null, null);
                watchLine(steps, closed, then);
            } else {
                then.seen(null, null, e);
            }
        });
    }

    /**
     * The watch of a contender this client may not read: a child watch on the folder, which needs
     * READ on the folder only (the listing needs it too). Its reply is the line ({@code LISTED}),
     * which the caller decides on as on a look's: the listing that sets the watch is the look, so a
     * wake costs one listing. Any change in the line wakes this contender ({@code LINE_CHANGED}: the
     * event does not say which child went), which watches the folder again; so with such ACLs each
     * change wakes every waiter that watches this way, where a readable predecessor wakes one. When
     * the listing lets the caller hold or wait elsewhere, the child watch stays set until the
     * folder's next change, which fires it once, to an attempt that has moved on and ignores it.
     */
    private void watchLine(Executor steps, Consumer<ClientClosedException> closed, Sight then) {
        Watcher watcher = SpeedPaths.handOver(steps, event -> {
            if (event.getState() == Watcher.Event.KeeperState.Expired) {
                then.seen(Seen.EXPIRED, null, null);
            } else if (event.getType() != Watcher.Event.EventType.None) {
                then.seen(Seen.LINE_CHANGED, null, null);
            }
        });
        SpeedPaths.handOver(ops.getChildren().usingWatcher(watcher).forPathAsync(dir), steps, closed, (children, e) -> {
            if (e == null) {
                then.seen(Seen.LISTED, children, null);
            } else if (Failures.rethrow(e) instanceof NoNodeException) {
                then.seen(Seen.CHANGED, null, null); // the folder went, and our node with it: looking again shows it
            } else {
                then.seen(null, null, e);
            }
        });
    }

    /**
     * Takes a ticket and waits, with no time limit, for it to hold.
     *
     * @param data the node's data (participant id, ...)
     * @return completes (on the client's async executor) with the held ticket. Cancelling it abandons
     *     the attempt and deletes its node.
     */
    public CompletableFuture<Ticket> acquire(byte[] data) {
        return attempt(data, Deadline.none(), Contention::ticketOnly, ticket -> { });
    }

    /**
     * Takes a ticket and waits for it to hold.
     *
     * @param data the node's data (participant id, ...)
     * @param timeout how long to wait. {@link Duration#ZERO} means "look once": take a ticket, list
     *     the line, and give up at once unless the ticket holds (a try-lock); it gives up without a
     *     request while the client is disconnected, and at once if the connection drops during the look. Any other timeout is a
     *     deadline that may cut the attempt at any step. (Null still means no limit, as
     *     {@link #acquire(byte[])}; Baton's own layers pass a {@link Deadline} instead.)
     * @return completes (on the client's async executor) with the held ticket, or with null when
     *     {@code timeout} passed first. Cancelling it abandons the attempt and deletes its node.
     */
    public CompletableFuture<Ticket> acquire(byte[] data, Duration timeout) {
        return attempt(data, deadline(timeout), Contention::ticketOnly, ticket -> { });
    }

    /**
     * Blocking {@link #acquire(byte[])}: returns the held ticket. An interrupt abandons the attempt (its
     * node is deleted) and is rethrown.
     *
     * @param data the contender node's data
     * @return the held ticket
     * @throws InterruptedException if the calling thread is interrupted while it waits (its node is deleted)
     */
    public Ticket acquireBlocking(byte[] data) throws InterruptedException {
        return Futures.awaitOrCancel(attempt(data, Deadline.none(), Contention::ticketOnly, this::release), this::release);
    }

    /**
     * Blocking {@link #acquire}: returns the held ticket, or null on timeout. An interrupt abandons the attempt (its
     * node is deleted) and is rethrown.
     *
     * @param data the contender node's data
     * @param timeout how long to wait at most (null, passed on: no limit)
     * @return the held ticket, or null on timeout
     * @throws InterruptedException if the calling thread is interrupted while it waits (its node is deleted)
     */
    public Ticket acquireBlocking(byte[] data, Duration timeout) throws InterruptedException {
        return Futures.awaitOrCancel(attempt(data, deadline(timeout), Contention::ticketOnly, this::release), this::release);
    }

    /**
     * {@link #acquire}, and the hold it gives, watched under the client's error policy from its
     * first moment; when the attempt had to wait, through the watch the engine already set on its
     * own node (no request of its own, see {@link Holding}). Cancelling the future abandons the
     * attempt, or gives back a hold that arrived meanwhile.
     *
     * @param data the contender node's data
     * @param timeout how long to wait at most (null, passed on: no limit)
     * @return the hold, or null on timeout
     */
    public CompletableFuture<Holding> acquireHold(byte[] data, Duration timeout) {
        return acquireHold(data, deadline(timeout));
    }

    /**
     * {@link #acquireHold(byte[], Duration)} until {@code deadline}: how the lock layers pass on
     * their caller's limit ({@link Deadline#none()}: none).
     *
     * @param data the contender node's data
     * @param deadline when to give up
     * @return the hold, or null once the deadline passed
     */
    public CompletableFuture<Holding> acquireHold(byte[] data, Deadline deadline) {
        return attempt(data, Objects.requireNonNull(deadline, "deadline"), this::holdOf, Holding::close);
    }

    /**
     * Blocking {@link #acquireHold}: the hold, or null on timeout. An interrupt leaves nothing behind and is
     * rethrown.
     *
     * @param data the contender node's data
     * @param timeout how long to wait at most (null, passed on: no limit)
     * @return the hold, or null on timeout
     * @throws InterruptedException if the calling thread is interrupted while it waits (its node is deleted)
     */
    public Holding acquireHoldBlocking(byte[] data, Duration timeout) throws InterruptedException {
        return acquireHoldBlocking(data, deadline(timeout));
    }

    /**
     * Blocking {@link #acquireHold(byte[], Deadline)}.
     *
     * @param data the contender node's data
     * @param deadline when to give up
     * @return the hold, or null once the deadline passed
     * @throws InterruptedException if the calling thread is interrupted while it waits (its node is deleted)
     */
    public Holding acquireHoldBlocking(byte[] data, Deadline deadline) throws InterruptedException {
        Objects.requireNonNull(deadline, "deadline");
        return Futures.awaitOrCancel(attempt(data, deadline, this::holdOf, Holding::delete), Holding::delete);
    }

    /**
     * Gives the place up: deletes the ticket's node, in the background if the connection is down.
     *
     * @param ticket the place to give up
     * @return completes when the node is deleted
     */
    public CompletableFuture<Void> release(Ticket ticket) {
        return client.delete().quietly().guaranteed().forPathAsync(ticket.path());
    }

    /** {@return the contenders' node names in line order, first holder first} */
    public CompletableFuture<List<String>> contenders() {
        return client.getChildren().forPathAsync(dir)
            .thenApply(children -> Contenders.inOrder(children, markers))
            .exceptionally(e -> {
                if (Failures.rethrow(e) instanceof NoNodeException) {
                    return List.of();
                }
                throw Failures.rethrow(e);
            });
    }

    /**
     * Blocking {@link #contenders()}.
     *
     * @return the contenders' node names in line order, first holder first
     * @throws InterruptedException if the calling thread is interrupted while it waits for the listing
     */
    public List<String> contendersBlocking() throws InterruptedException {
        return Futures.await(contenders());
    }

    /**
     * {@return what the rule says for {@code ticket} given the line right now (for inspection and tests)}
     *
     * @param ordered the contenders' names, in line order
     * @param ticket a ticket of this engine
     */
    public Decision decide(List<String> ordered, Ticket ticket) {
        int mine = ordered.indexOf(ticket.name());
        if (mine < 0) {
            throw new IllegalArgumentException(ticket.name() + " is not in line " + ordered);
        }
        return rule.decide(ordered, mine);
    }

    /**
     * The one place the engine turns a caller's timeout into its {@link Deadline}; everything past
     * here knows only the deadline. Null, which the {@code Duration} forms document as "no limit",
     * is turned into {@link Deadline#none()} here once; Baton's own layers pass a deadline instead.
     */
    private static Deadline deadline(Duration timeout) {
        if (timeout == null) {
            return Deadline.none();
        }
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        return Deadline.after(timeout);
    }

    /**
     * Runs an attempt: its steps run one at a time on the client's async executor (no thread waits;
     * the blocking forms wait for the result). The result completes with null when {@code deadline}
     * passes first (one already passed, from a zero timeout: the line is looked at once); completing or cancelling it first abandons the attempt. While it waits, the
     * client's confirmed-contact clock is kept fresh, so that a hold granted after a long wait starts
     * with a recent round trip to the leader behind it (see {@link Holding}). (Running a blocking
     * attempt's steps on the waiting thread itself saved thread hand-offs but showed no gain in the
     * lock benchmark: see {@link SpeedPaths}.)
     *
     * @param grant makes what the caller gets of a ticket that holds
     * @param discard undoes that when the result was completed (timed out, cancelled) meanwhile
     */
    private <R> CompletableFuture<R> attempt(byte[] data, Deadline deadline, Function<Attempt.Granted, R> grant,
                                             Consumer<R> discard) {
        Objects.requireNonNull(data, "data");
        if (deadline.hasPassed() && !client.connectionState().isConnected()) {
            // a look-once cannot look while disconnected: "not free now", as a timed attempt whose
            // deadline passes while disconnected says, instead of its create waiting the connection timeout
            return CompletableFuture.completedFuture(null);
        }
        SerialExecutor steps = new SerialExecutor(client.asyncExecutor(), client, acquisitionName);
        Attempt<R> attempt = new Attempt<>(this, data, deadline, steps, grant, discard);
        CompletableFuture<R> result = attempt.result();
        LeaderContact.Keep fresh = LeaderContact.keepFresh(client);
        result.whenComplete((r, e) -> fresh.close());
        if (!deadline.isNone() && !deadline.hasPassed()) {
            CompletableFuture.delayedExecutor(deadline.remainingNanos(), TimeUnit.NANOSECONDS, client.asyncExecutor())
                .execute(() -> result.complete(null));
        } else if (deadline.hasPassed()) {
            // nor does a look-once wait for a connection lost during its look; the attempt gives back what it made
            ConnectionStateListener cut = (c, state) -> {
                if (!state.isConnected()) {
                    result.complete(null);
                }
            };
            client.addConnectionStateListener(cut);
            result.whenComplete((r, e) -> client.removeConnectionStateListener(cut));
            if (!client.connectionState().isConnected()) {
                result.complete(null); // cut between the check above and the listener, which heard nothing of it
            }
        }
        attempt.begin();
        return result;
    }

    private static Ticket ticketOnly(Attempt.Granted granted) {
        granted.watch().listen(null, null); // nobody monitors a bare ticket through the engine
        return granted.ticket();
    }

    private Holding holdOf(Attempt.Granted granted) {
        return Holding.granted(this, granted.ticket(), granted.watch(), lateWatches);
    }

    /**
     * Thrown by recipes built on the engine when an acquisition failed for a reason other than time.
     *
     * @param what the recipe and what it tried
     * @param cause the failure underneath
     * @return the exception to throw: {@code cause} itself when it is already a {@link BatonException}
     */
    public static BatonException failure(String what, Throwable cause) {
        return new BatonException(what + ": " + cause.getMessage(), cause);
    }
}

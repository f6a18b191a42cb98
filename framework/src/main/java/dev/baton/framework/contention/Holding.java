package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosingListener;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.Failures;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.internal.LeaderContact;
import dev.baton.framework.internal.WakeUps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hold of one ticket: watches it, says loudly when what it grants may be gone, and gives it
 * back with a delete that proves it lasted. (One class for both: it was {@code Holding} and
 * {@code TicketHold}, a monitor and the grant around it, which always came together.)
 *
 * <p>A hold is lost when: the connection state means loss under the {@link ErrorPolicy}
 * (SUSPENDED under STANDARD, LOST always); the client is on a different session than the one
 * that owns the ticket; the ticket's node is deleted by someone else; or, under STANDARD and with
 * a lease margin, when the ensemble's leader may have expired the session: the client's
 * confirmed-contact clock ({@link BatonClient#leaderContactNanos()}, advanced only by round
 * trips the leader answered) plus the negotiated session timeout, minus the margin, on the
 * monotonic clock. That deadline applies while connected too: a follower cut off from its leader
 * keeps answering its clients (pings, reads) until its own {@code syncLimit} timeout, while the
 * leader expires their sessions; the hold must not trust those replies. While such a hold lasts,
 * the client keeps its clock fresh with a {@code sync} every quarter of the session timeout (see
 * {@code LeaderContact}). READ_ONLY counts as SUSPENDED throughout
 * ({@link ErrorPolicy#suspendsHolds}): a read-only server keeps nothing alive on the quorum (nor
 * does it answer a sync, so under a lease the deadline runs on). Loss is final; {@code onLost}
 * callbacks run once, on the client's event executor, never on ZooKeeper's thread.
 *
 * <p>Watching the node for a deletion by someone else. {@link #monitor} sets a watch on it at
 * once. A hold the engine gives ({@link Contention#acquireHold}) after waiting inherits the watch
 * the engine set on its own node while it waited: watched from its first moment, at no cost. A
 * hold the engine gives at its first look (nobody ahead: the uncontended case) has no such watch;
 * its watch is set once the hold has lasted a moment ({@link SpeedPaths.LateWatches}, which says
 * why). Our own delete at the end of a hold fires the watch after the monitor is closed, and then
 * nothing runs.
 *
 * <p>Giving it back ({@link #delete}) deletes the node in the ticket's own session
 * ({@link ProvenDelete}): an answer there proves the node was still in place, so the hold lasted
 * until the delete; without one the delete fails with {@link OwnershipLostException}, which a
 * {@link Grant} passes on from its release.
 */
public final class Holding implements Hold, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Holding.class);
    /** The smallest margin {@link #defaultMargin} picks: covers timer and callback latency. */
    public static final Duration MIN_DEFAULT_MARGIN = Duration.ofMillis(50);
    /** Ticket nodes are never written after creation, so they stay at their first version. */
    private static final int CREATED_VERSION = 0;

    private final BatonClient client;
    private final Ticket ticket;
    private final ErrorPolicy policy;
    /** How long before the session could expire the hold ends; null if it does not rest on the leader's contact. */
    private final Duration margin;
    private final List<Runnable> callbacks = new ArrayList<>();
    private final ConnectionStateListener listener;
    private final OwnNodeWatch node;
    /** Gives the node back at the end: in the ticket's session, else in the background. */
    private final ProvenDelete giveBack;
    private String lostReason;
    private boolean closed;
    private volatile LeaderContact.Deadline deadline;

    private Holding(BatonClient client, Ticket ticket, ErrorPolicy policy, Duration leaseMargin, OwnNodeWatch node,
                    Function<Ticket, CompletableFuture<Void>> deleter) {
        this.client = client;
        this.giveBack = new ProvenDelete(client, ticket, deleter);
        this.ticket = ticket;
        this.policy = policy;
        this.margin = leaseMargin != null ? leaseMargin
            : policy == ErrorPolicy.STANDARD ? defaultMargin(client.negotiatedSessionTimeout()) : null;
        this.node = node;
        this.listener = new ClientClosingListener() {
            @Override
            public void stateChanged(BatonClient c, ConnectionState newState) {
                // the variant with the session is the one that counts
            }

            @Override
            public void stateChanged(BatonClient c, ConnectionStateChange change) {
                onState(change);
            }

            @Override
            public void clientClosing() {
                lose("the client was closed");
            }
        };
    }

    /**
     * Starts watching {@code ticket} under {@code policy}; {@link #delete} gives its node back (a
     * guaranteed delete: in the background if the connection is down).
     *
     * @param client the client the ticket's node was created through
     * @param ticket the held node
     * @param policy which connection states count as loss
     * @return the monitor
     */
    public static Holding monitor(BatonClient client, Ticket ticket, ErrorPolicy policy) {
        return start(new Holding(client, ticket, Objects.requireNonNull(policy, "policy"), null, ownWatch(client, ticket),
            quietDelete(client)), true);
    }

    /**
     * The hold of a ticket {@code engine} granted, watched through the engine's watch on its node:
     * set already if the attempt waited, else set by {@code late} once the hold has lasted.
     */
    static Holding granted(Contention engine, Ticket ticket, OwnNodeWatch engineWatch, SpeedPaths.LateWatches late) {
        BatonClient client = engine.client();
        Holding holding = start(new Holding(client, ticket, client.errorPolicy(), null, engineWatch, engine::release), false);
        if (!engineWatch.armed()) {
            late.add(engineWatch);
        }
        return holding;
    }

    private static Function<Ticket, CompletableFuture<Void>> quietDelete(BatonClient client) {
        return ticket -> client.delete().quietly().guaranteed().forPathAsync(ticket.path());
    }

    private static OwnNodeWatch ownWatch(BatonClient client, Ticket ticket) {
        return new OwnNodeWatch(WakeUps.repliesInPlace(Objects.requireNonNull(client, "client")),
            Objects.requireNonNull(ticket, "ticket").path());
    }

    /**
     * Starts watching {@code ticket} under {@link ErrorPolicy#SESSION_ONLY}, plus a lease: through a
     * disconnect as while connected, the hold stays valid until {@code margin} before the earliest
     * moment the ensemble's leader could expire the session.
     *
     * @param client the client the ticket's node was created through
     * @param ticket the held node
     * @param margin how long before the earliest possible session expiry the hold ends
     * @return the monitor
     */
    public static Holding monitorWithLease(BatonClient client, Ticket ticket, Duration margin) {
        Objects.requireNonNull(margin, "margin");
        if (margin.isNegative()) {
            throw new IllegalArgumentException("lease margin must not be negative, was " + margin);
        }
        return start(new Holding(client, ticket, ErrorPolicy.SESSION_ONLY, margin, ownWatch(client, ticket),
            quietDelete(client)), true);
    }

    /**
     * Keeps {@code client}'s leader-contact clock fresh until the returned handle is closed. A hold
     * under a deadline ({@link #monitor} under {@code STANDARD}, {@link #monitorWithLease}) ends
     * when that clock is a session timeout (less the margin) old; a recipe that waits in line
     * outside the contention engine (which keeps the clock itself) must keep it while it waits, or
     * the hold it is granted after a wait longer than the session timeout starts past its deadline
     * and is lost at once. Costs a {@code sync} every quarter session timeout while open.
     *
     * @param client the client whose clock to keep (a client that is not Baton's own has none: no-op)
     * @return the handle; closing it twice is harmless
     */
    public static KeptContact keepLeaderContact(BatonClient client) {
        LeaderContact.Keep keep = LeaderContact.keepFresh(Objects.requireNonNull(client, "client"));
        return keep::close;
    }

    /** A kept leader-contact clock ({@link #keepLeaderContact}); {@link #close} stops keeping it. */
    @FunctionalInterface
    public interface KeptContact extends AutoCloseable {
        /** Stops keeping the clock (once; later calls do nothing). */
        @Override
        void close();
    }

    /**
     * {@return the margin a hold under STANDARD uses, and election's default lease margin: a tenth
     * of the negotiated session timeout, at least {@link #MIN_DEFAULT_MARGIN}}
     *
     * @param negotiatedSessionTimeout the session timeout the servers granted
     */
    public static Duration defaultMargin(Duration negotiatedSessionTimeout) {
        Duration tenth = negotiatedSessionTimeout.dividedBy(10);
        return tenth.compareTo(MIN_DEFAULT_MARGIN) < 0 ? MIN_DEFAULT_MARGIN : tenth;
    }

    private static Holding start(Holding holding, boolean armWatch) {
        holding.client.addConnectionStateListener(holding.listener);
        holding.node.listen(end -> holding.lose(holding.ticket.name() + " " + end), holding.client.asyncExecutor());
        if (armWatch) {
            holding.node.arm();
        }
        if (holding.margin != null) {
            holding.deadline = LeaderContact.watch(holding.client, holding.ticket.sessionId(), holding.margin,
                () -> holding.lose("no round trip confirmed by the ensemble's leader for the session timeout minus "
                    + holding.margin + ": the session may be expiring"));
        }
        // a change that happened before the listener was added would not be heard: check now
        if (holding.client.sessionId() != holding.ticket.sessionId()) {
            holding.lose("the session that owns " + holding.ticket.name() + " is gone");
        } else {
            ConnectionState now = holding.client.connectionState();
            if (ErrorPolicy.suspendsHolds(now)) {
                holding.onState(new ConnectionStateChange(now, holding.ticket.sessionId(), 0));
            }
        }
        return holding;
    }

    /** {@return the held node} */
    public Ticket ticket() {
        return ticket;
    }

    /** {@return whether the hold can still be trusted right now} */
    @Override
    public boolean isValid() {
        synchronized (this) {
            if (lostReason != null) {
                return false;
            }
        }
        if (client.sessionId() != ticket.sessionId()) {
            return false;
        }
        if (policy.isLoss(client.connectionState())) {
            return false;
        }
        LeaderContact.Deadline current = deadline;
        return current == null || !current.passed();
    }

    /**
     * {@return why the hold was lost, if it was} When the monitor has not heard yet but the
     * connection state already means loss, that state is the reason.
     */
    @Override
    public Optional<String> lossReason() {
        synchronized (this) {
            if (lostReason != null) {
                return Optional.of(lostReason);
            }
        }
        if (isValid()) {
            return Optional.empty();
        }
        return Optional.of("connection state " + client.connectionState() + " under error policy " + client.errorPolicy());
    }

    /**
     * Runs {@code callback} once when the hold is lost (soon, if it already is).
     *
     * @param callback what to run
     */
    @Override
    public void onLost(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        boolean now;
        synchronized (this) {
            now = lostReason != null;
            if (!now) {
                callbacks.add(callback);
            }
        }
        if (now) {
            client.eventExecutor().execute(callback);
        }
    }

    /**
     * Stops watching without deleting (the hold ended normally, or its node is given back
     * elsewhere). No callback runs after this.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            callbacks.clear();
        }
        endDeadline();
        node.listen(null, null);
        client.removeConnectionStateListener(listener);
    }

    /** {@return the client the node was created through} */
    public BatonClient client() {
        return client;
    }

    @Override
    public long fencingToken() {
        return ticket.fencingToken();
    }

    @Override
    public List<String> nodes() {
        return List.of(ticket.path());
    }

    @Override
    public TransactionBuilder guard(TransactionBuilder transaction) {
        return transaction.check(ticket.path(), CREATED_VERSION);
    }

    /**
     * Whether the client is connected to a writable server (CONNECTED or RECONNECTED): only then
     * can the delete be answered. A read-only server answers it with NOTREADONLY.
     */
    @Override
    public boolean connected() {
        return client.connectionState().isWritable();
    }

    /**
     * Stops watching and deletes the node in the ticket's own session ({@link ProvenDelete#delete}): the
     * future completes when the servers deleted it there — proof that the hold lasted until the delete;
     * it fails with {@link OwnershipLostException} when the hold cannot be shown to have lasted.
     */
    @Override
    public CompletableFuture<Void> delete() {
        close();
        return giveBack.delete();
    }

    /**
     * {@link #delete()} with the client's blocking call while connected ({@link ProvenDelete#deleteAndWait}).
     * Not connected to a writable server, it does not wait: the delete goes on in the background.
     *
     * @throws OwnershipLostException when the hold cannot be shown to have lasted until the delete
     */
    @Override
    public void deleteAndWait(String what) {
        if (!connected()) {
            delete();
            return;
        }
        close();
        giveBack.deleteAndWait();
    }

    private void onState(ConnectionStateChange change) {
        switch (change.state()) {
            case LOST -> {
                if (change.sessionId() == ticket.sessionId() || change.sessionId() == 0) {
                    lose("session 0x" + Long.toHexString(ticket.sessionId()) + " lost");
                }
            }
            case SUSPENDED -> suspended("connection suspended");
            case READ_ONLY -> {
                if (change.sessionId() != ticket.sessionId()) {
                    lose("reconnected read-only with another session (0x" + Long.toHexString(change.sessionId()) + ")");
                } else {
                    suspended("connected to a read-only server, cut off from its quorum");
                }
            }
            case CONNECTED, RECONNECTED -> {
                if (change.sessionId() != ticket.sessionId()) {
                    lose("reconnected with another session (0x" + Long.toHexString(change.sessionId()) + ")");
                }
            }
        }
    }

    /**
     * The session cannot be shown alive on the quorum ({@code why}): lost under STANDARD; under a
     * lease, the confirmed-contact deadline decides (it runs through a disconnect).
     */
    private void suspended(String why) {
        if (policy.isLoss(ConnectionState.SUSPENDED)) {
            lose(why);
        }
    }

    private void endDeadline() {
        LeaderContact.Deadline current = deadline;
        if (current != null) {
            current.close();
        }
    }

    private void lose(String reason) {
        List<Runnable> toRun;
        synchronized (this) {
            if (lostReason != null || closed) {
                return;
            }
            lostReason = reason;
            toRun = new ArrayList<>(callbacks);
            callbacks.clear();
        }
        endDeadline();
        LOG.warn("hold of {} lost: {}", ticket.path(), reason);
        node.listen(null, null);
        client.removeConnectionStateListener(listener);
        for (Runnable callback : toRun) {
            client.eventExecutor().execute(callback);
        }
    }
}

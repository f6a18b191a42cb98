package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.internal.LeaderContact;
import dev.baton.framework.internal.WakeUps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a held ticket and says, loudly, when what it grants may be gone.
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
 * hold the engine gives at its first look (nobody ahead: the uncontended case) has no such watch,
 * and setting one costs a request and, at our own delete, an event — measured at 6–9% of an
 * uncontended acquire-and-release on the development machine. So its watch is set only once the
 * hold has lasted {@link LateWatches#DELAY} (one timer per engine, not one per hold): most lock
 * holds are shorter and never pay for it, and a deletion in the first moments of a longer one is
 * noticed then (the watch's request finds the node gone). Our own delete at the end of a hold
 * fires the watch after the monitor is closed, and then nothing runs.
 */
public final class Holding implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Holding.class);
    /** The smallest margin {@link #defaultMargin} picks: covers timer and callback latency. */
    public static final Duration MIN_DEFAULT_MARGIN = Duration.ofMillis(50);

    private final BatonClient client;
    private final Ticket ticket;
    private final ErrorPolicy policy;
    /** How long before the session could expire the hold ends; null if it does not rest on the leader's contact. */
    private final Duration margin;
    private final List<Runnable> callbacks = new ArrayList<>();
    private final ConnectionStateListener listener;
    private final OwnNodeWatch node;
    private String lostReason;
    private boolean closed;
    private volatile LeaderContact.Deadline deadline;

    private Holding(BatonClient client, Ticket ticket, ErrorPolicy policy, Duration leaseMargin, OwnNodeWatch node) {
        this.client = client;
        this.ticket = ticket;
        this.policy = policy;
        this.margin = leaseMargin != null ? leaseMargin
            : policy == ErrorPolicy.STANDARD ? defaultMargin(client.negotiatedSessionTimeout()) : null;
        this.node = node;
        this.listener = new ConnectionStateListener() {
            @Override
            public void stateChanged(BatonClient c, ConnectionState newState) {
                // the variant with the session is the one that counts
            }

            @Override
            public void stateChanged(BatonClient c, ConnectionStateChange change) {
                onState(change);
            }
        };
    }

    /**
     * Starts watching {@code ticket} under {@code policy}.
     *
     * @param client the client the ticket's node was created through
     * @param ticket the held node
     * @param policy which connection states count as loss
     * @return the monitor
     */
    public static Holding monitor(BatonClient client, Ticket ticket, ErrorPolicy policy) {
        return start(new Holding(client, ticket, Objects.requireNonNull(policy, "policy"), null, ownWatch(client, ticket)), true);
    }

    /**
     * Watches a ticket the engine granted, through the engine's watch on its node: set already if
     * the attempt waited, else set by {@code late} once the hold has lasted.
     */
    static Holding monitor(BatonClient client, Ticket ticket, ErrorPolicy policy, OwnNodeWatch engineWatch, LateWatches late) {
        Holding holding = start(new Holding(client, ticket, policy, null, engineWatch), false);
        if (!engineWatch.armed()) {
            late.add(engineWatch);
        }
        return holding;
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
        return start(new Holding(client, ticket, ErrorPolicy.SESSION_ONLY, margin, ownWatch(client, ticket)), true);
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

    /** {@return why the hold was lost, if it was} */
    public synchronized Optional<String> lossReason() {
        return Optional.ofNullable(lostReason);
    }

    /**
     * Runs {@code callback} once when the hold is lost (soon, if it already is).
     *
     * @param callback what to run
     */
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

    /** Stops watching (the hold ended normally). No callback runs after this. */
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

package dev.baton.recipes.election;

import dev.baton.framework.AsyncConditionWait;
import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientClosingListener;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.Deadline;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.Ticket;
import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election by latch: of the latches started on one path, one leads at a time, until it
 * closes or loses its node, its session or (per its {@link LeadershipPolicy}) its connection.
 *
 * <p>Algorithm. A latch is a mutex contender on the framework's contention engine: node
 * {@code _c_<uuid>-latch-<seq>}, data = participant id (Curator's layout, so Curator latches can
 * share the election). The engine grants only after listing the line and finding the latch's node
 * first, on the client's current session — never on the mere deletion of the node before it,
 * which may have been deleted together with the latch's own node, and never for a node left by
 * an earlier session. While leading, a {@link Holding} watches node, session and connection under
 * the policy. After a loss the latch reads its node once connected: if the same session still
 * owns it (same creation zxid), it is still first in line (nodes only join at the back), so the
 * latch leads again in the same term; otherwise it deletes what is left of it and joins the back
 * of the line.
 *
 * <p>Guarantees and caveats. At most one latch leads at a time as long as the leader can see
 * what ends its leadership before the servers act on it: graceful close (listeners hear
 * {@code notLeader()} before the node is deleted; closing the client first closes the latch the
 * same way, before the session ends), connection loss under CONNECTION, or a
 * partition under LEASE (the leader steps down before its session can expire). When the servers
 * end a leader's term without it taking part — an operator deletes its node, its session is
 * expired while its process is paused — the old leader steps down as soon as it hears of it,
 * which may be after the next leader was elected. Each term carries a token (its node's czxid,
 * larger than every earlier term's): pass it to the resources the leader acts on so they can
 * reject a stale leader. The latch recovers by itself from its node being deleted, session
 * expiry, and its folder being deleted or reaped.
 *
 * <pre>{@code
 * try (LeaderLatch latch = new LeaderLatch(client, "/services/billing/leader", "billing-7")) {
 *     latch.addListener(LeaderLatchListener.of(token -> scheduler.startAs(token), scheduler::stop));
 *     latch.start();
 *     latch.awaitAsync().thenRun(this::announce);   // or latch.await(), parking a thread
 *     ...
 * }
 * }</pre>
 */
public final class LeaderLatch implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderLatch.class);

    /** {@link #leadershipToken()} when not leading: smaller than every real token. */
    public static final long NO_TOKEN = -1;

    /** Whether closing a leading latch tells its listeners. */
    public enum CloseMode {
        /** Listeners hear nothing. */
        SILENT,
        /** Listeners hear {@code notLeader()} (before the node is deleted). The default. */
        NOTIFY_LEADER
    }

    /** Where a latch is in its life. */
    public enum State {
        /** Built, not started. */
        LATENT,
        /** In line (or rejoining, or checking its node after a loss); not leading. */
        WAITING,
        /** First in line, node confirmed, leading (subject to {@link #hasLeadership()}'s checks). */
        LEADER,
        /** Closed for good. */
        CLOSED
    }

    private final BatonClient client;
    private final String path;
    private final String participantId;
    private final Line line;
    private final Leadership leadership;
    private final Notifier notifier;
    private final List<LeaderLatchListener> listeners = new CopyOnWriteArrayList<>();
    private final Candidacy candidacy;
    /** Closes the latch when its client closes, before the session (and the node with it) ends. */
    private final ClientClosingListener closesWithClient = this::close;
    /** Completes once the close has told the listeners and given the node back; null until close() (guarded by this). */
    private CompletableFuture<Void> closing;

    // guarded by this (and so is the term in leadership: there exactly while LEADER); the monitor
    // is held only for moments, never across a wait
    private State state = State.LATENT;
    /** Bumped at every state move: what {@link #await} waits on. */
    private final ChangeSignal changes = new ChangeSignal();

    /**
     * A latch with the default settings (see {@link Builder}).
     *
     * @param client the client whose session the latch's node belongs to
     * @param path the election's folder, such as {@code /app/leader}
     * @param participantId what this participant publishes in its node (at most {@link
     *     ElectionBuilder#MAX_PARTICIPANT_ID_BYTES} in UTF-8)
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public LeaderLatch(BatonClient client, String path, String participantId) {
        this(builder(client, path, participantId));
    }

    private LeaderLatch(Builder b) {
        this.client = b.client;
        this.path = b.path;
        this.participantId = b.participantId;
        this.leadership = b.leadership(this, "latch");
        this.line = leadership.line();
        this.notifier = new Notifier(b.executor != null ? b.executor : b.client.asyncExecutor(), b.client, "leader latch " + b.path);
        this.candidacy = new Candidacy(b.client, line, b.participantId.getBytes(StandardCharsets.UTF_8),
            leadership.name(), this::lead);
    }

    /**
     * Configures a latch: policy, lease margin, listener executor.
     *
     * @param client the client whose session the latch's node belongs to
     * @param path the election's folder, such as {@code /app/leader}
     * @param participantId what this participant publishes in its node (at most {@link
     *     ElectionBuilder#MAX_PARTICIPANT_ID_BYTES} in UTF-8)
     * @return a builder; {@link Builder#build()} makes the latch
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public static Builder builder(BatonClient client, String path, String participantId) {
        return new Builder(client, path, participantId);
    }

    /**
     * Joins the election (in the background). Needs no connection: without one it returns at once
     * and the latch joins the line when the client connects.
     *
     * @throws IllegalStateException if it was started before, or closed (a closed latch cannot start
     *     again: build a new one)
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws ClientClosedException if the client is closed (nothing could ever be elected)
     */
    public void start() {
        // unstarted, it would wait for a connection that a client never started never makes
        client.requireStarted("start the leader latch", path);
        synchronized (this) {
            Leadership.checkNotStarted("latch", path, state);
            moveTo(State.WAITING);
        }
        client.addConnectionStateListener(closesWithClient);
        if (client.isClosed()) {
            close(); // closed since the check above: the hook may have come too late
            throw new ClientClosedException("start the leader latch", path);
        }
        candidacy.start();
    }

    /**
     * Leaves the election, telling the listeners if it was leading ({@link CloseMode#NOTIFY_LEADER}).
     * Closing the latch's client does this too, before the session ends: the latch and its client may
     * be closed in either order.
     */
    @Override
    public void close() {
        close(CloseMode.NOTIFY_LEADER);
    }

    /**
     * Leaves the election. Returns once the node is deleted (or, without a connection, left to
     * the client's background deletion; while the client closes, to the end of its session), and, in
     * NOTIFY_LEADER mode, after the listeners' {@code notLeader()}; when called from a listener it
     * returns at once and the rest follows. A call while another close is under way waits for that
     * one (the mode of the first call counts).
     *
     * @param mode whether a leading latch runs its listeners' {@code notLeader()} first
     */
    public void close(CloseMode mode) {
        Objects.requireNonNull(mode, "mode");
        Holding held;
        CompletableFuture<Void> underWay;
        CompletableFuture<Void> done = new CompletableFuture<>();
        synchronized (this) {
            underWay = closing;
            if (underWay == null) {
                closing = done;
                boolean leading = state == State.LEADER;
                held = leadership.end();
                moveTo(State.CLOSED);
                if (leading && mode == CloseMode.NOTIFY_LEADER) {
                    listeners.forEach(l -> notifier.add(l::notLeader));
                }
            } else {
                held = null;
            }
        }
        if (underWay != null) {
            // a close already under way elsewhere (a shutdown hook, while the client closes on another): wait for it
            // too, so that the client's close does not end the session while notLeader() still runs
            awaitClosed(underWay);
            return;
        }
        if (held != null) {
            held.close();
        }
        Ticket mine = candidacy.leave();
        // the node goes only after notLeader() returned: nobody is elected while we still act. A closing
        // client's session takes the node with it once this returns: no delete to send
        CompletableFuture<Void> gone = notifier.barrier().thenCompose(v -> mine == null || client.isClosed()
            ? CompletableFuture.<Void>completedFuture(null) : line.contention().release(mine));
        gone.whenComplete((v, e) -> {
            if (e != null) {
                LOG.debug("latch on {}: node {} will be deleted in the background: {}", path, mine, e.toString());
            }
            // only now: a client closed meanwhile (on another thread) must find this close, and wait for it
            client.removeConnectionStateListener(closesWithClient);
            done.complete(null);
        });
        awaitClosed(done);
    }

    /** Waits for a close to finish, unless called from a listener (which the close may be waiting for). */
    private void awaitClosed(CompletableFuture<Void> closed) {
        if (notifier.isDelivering()) {
            return;
        }
        try {
            closed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot happen: a close completes normally", e);
        }
    }

    /** {@return whether this latch leads now: state LEADER and its policy's checks (session, connection, lease deadline) pass} */
    public boolean hasLeadership() {
        return leadership.hasLeadership();
    }

    /** {@return the current term's token (czxid of this latch's node) while leading, else {@link #NO_TOKEN}} */
    public long leadershipToken() {
        return leadership.leadershipToken();
    }

    /**
     * Waits, as long as it takes, until this latch leads.
     *
     * @throws IllegalStateException if the latch was not started
     * @throws ElectionClosedException if the latch is or becomes closed while waiting
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public void await() throws InterruptedException {
        awaitLeading(Deadline.none());
    }

    /**
     * Waits up to {@code timeout} for this latch to lead (Curator's {@code await(long, TimeUnit)}).
     * A zero timeout only looks; a timeout too long to count waits without limit.
     *
     * @param timeout how long to wait at most
     * @return whether the latch leads when the call returns (its policy's checks pass)
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws IllegalStateException if the latch was not started
     * @throws ElectionClosedException if the latch is or becomes closed while waiting
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public boolean await(Duration timeout) throws InterruptedException {
        return awaitLeading(Deadline.afterNonNegative(timeout, client.ticker()));
    }

    /**
     * Waits, with no thread parked, until this latch leads: the future completes with true then (on the
     * client's async executor; at once if it leads now). It fails with {@link ElectionClosedException}
     * if the latch is or becomes closed first (closing its client closes it), as {@link #await()}
     * throws. Leadership lost while it waits only waits on, as {@link #await()} does. Cancelling it
     * ends the wait and leaves nothing behind: no listener, no timer, no node (the latch's own node is
     * the latch's, not the wait's).
     *
     * @return completes with true once the latch leads
     * @throws IllegalStateException if the latch was not started
     */
    public CompletableFuture<Boolean> awaitAsync() {
        return awaitLeadingAsync(Deadline.none());
    }

    /**
     * {@link #awaitAsync()} for at most {@code timeout}: the future completes with false if the latch
     * does not lead by then, as {@link #await(Duration)} returns. A zero timeout only looks.
     *
     * @param timeout how long to wait at most
     * @return completes with whether the latch leads (its policy's checks pass) in time
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws IllegalStateException if the latch was not started
     */
    public CompletableFuture<Boolean> awaitAsync(Duration timeout) {
        return awaitLeadingAsync(Deadline.afterNonNegative(timeout, client.ticker()));
    }

    /** {@link #awaitLeading}'s asynchronous form: every state move ({@link #changes}) and reconnection looks again. */
    private CompletableFuture<Boolean> awaitLeadingAsync(Deadline deadline) {
        synchronized (this) {
            if (state == State.LATENT) {
                throw new IllegalStateException("latch on " + path + " is not started: call start() first");
            }
        }
        // a client closed closed the latch first (its hook was added at start): the wait fails as the latch's
        return AsyncConditionWait.start(client, deadline, () -> new ElectionClosedException("latch on " + path + " is closed"),
            changes, watcher -> CompletableFuture.completedFuture(leadingNow()));
    }

    /**
     * Looks, and waits for the next state change, until the latch leads or {@code deadline}
     * passes. The wait is on {@link #changes}, not on this object's monitor: a virtual thread
     * waiting for an election (in effect, for the servers) must not pin its carrier, as
     * {@code Object.wait} does on Java 21 to 23. The generation is taken before the look, so a
     * change between the look and the wait is not missed. A reconnection wakes it too: a term's
     * checks can pass again (the connection is back within the lease) without a state move.
     */
    private boolean awaitLeading(Deadline deadline) throws InterruptedException {
        // one listener per wait: removing a shared one would end another waiter's wake-ups
        ConnectionStateListener reconnects = (c, newState) -> changes.stateChanged(c, newState);
        client.addConnectionStateListener(reconnects);
        try {
            while (true) {
                long seen = changes.generation();
                if (leadingNow()) {
                    return true;
                }
                if (!changes.awaitChange(seen, deadline)) {
                    return leadingNow();
                }
            }
        } finally {
            client.removeConnectionStateListener(reconnects);
        }
    }

    /** Whether the latch leads now; throws if it never can (not started, or closed). */
    private synchronized boolean leadingNow() {
        return switch (state) {
            case LATENT -> throw new IllegalStateException("latch on " + path + " is not started: call start() first");
            case CLOSED -> throw new ElectionClosedException("latch on " + path + " is closed");
            case LEADER -> leadership.term().isValid();
            case WAITING -> false;
        };
    }

    /**
     * Listeners hear every later change; one added while the latch leads hears {@code isLeader}
     * at once (so no grant is missed).
     *
     * @param listener the listener to add
     * @throws ElectionClosedException if the latch is closed (or its client is): it would never be called
     */
    public void addListener(LeaderLatchListener listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (this) {
            if (state == State.CLOSED) {
                throw new ElectionClosedException("latch on " + path + " is closed: a listener added now would never be called");
            }
            listeners.add(listener);
            if (state == State.LEADER) {
                long token = leadership.term().ticket().fencingToken();
                notifier.add(() -> listener.isLeader(token));
            }
        }
        notifier.flush();
    }

    /**
     * Removes a listener; it hears nothing more.
     *
     * @param listener the listener to remove
     */
    public void removeListener(LeaderLatchListener listener) {
        listeners.remove(listener);
    }

    /**
     * Replaces the id this leader publishes (in its node, where {@link #getParticipants()},
     * observers and Curator see it) without a new election; kept if it joins again later.
     *
     * @param id the id to publish
     * @throws NotLeaderException if this latch does not lead
     * @throws IllegalArgumentException if {@code id} is longer than
     *     {@link ElectionBuilder#MAX_PARTICIPANT_ID_BYTES} in UTF-8
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public void proclaim(String id) throws InterruptedException {
        candidacy.publishing(leadership.proclaim(id));
    }

    /**
     * {@return the participant whose node is first in line, or {@code Participant("", false)} if nobody is in
     * line}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reads
     */
    public Participant getLeader() throws InterruptedException {
        return line.leader();
    }

    /**
     * {@return every participant, in line order (the leader first)}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reads
     */
    public Collection<Participant> getParticipants() throws InterruptedException {
        return line.participants();
    }

    /** {@return where the latch is in its life} */
    public synchronized State state() {
        return state;
    }

    /** {@return the id this participant was created with} */
    public String participantId() {
        return participantId;
    }

    /**
     * Curator's name for {@link #participantId()}: the id this participant was created with.
     *
     * @return what {@link #participantId()} returns
     */
    public String getId() {
        return participantId();
    }

    /** {@return the election's folder} */
    public String path() {
        return path;
    }

    @Override
    public String toString() {
        return "LeaderLatch[" + path + ", " + participantId + ", " + state() + "]";
    }

    // ---- leading and stepping down (the candidacy finds and confirms the node) ----

    /** The one transition method: checks the move is legal. Caller holds the lock. */
    private void moveTo(State next) {
        Leadership.checkMove(switch (state) {
            case LATENT -> next == State.WAITING || next == State.CLOSED;
            case WAITING -> next == State.LEADER || next == State.CLOSED;
            case LEADER -> next == State.WAITING || next == State.CLOSED;
            case CLOSED -> false;
        }, "latch on " + path, state, next);
        state = next;
        changes.bump();
    }

    /** The candidacy confirmed {@code mine} first in line: lead, unless the connection already says otherwise. */
    private boolean lead(Ticket mine) {
        Holding watch;
        synchronized (this) {
            if (state != State.WAITING) {
                return false;
            }
            watch = leadership.monitor(mine);
            if (!watch.isValid()) {
                watch.close();
                return false;
            }
            leadership.begin(watch);
            moveTo(State.LEADER);
            long token = mine.fencingToken();
            listeners.forEach(l -> notifier.add(() -> l.isLeader(token)));
        }
        watch.onLost(() -> lost(watch));
        notifier.flush();
        return true;
    }

    private void lost(Holding which) {
        synchronized (this) {
            if (!leadership.end(which)) {
                return; // a newer term, or none: this loss was already handled
            }
            moveTo(State.WAITING);
            listeners.forEach(l -> notifier.add(l::notLeader));
        }
        LOG.info("latch {} on {} stepped down: {}", participantId, path, which.lossReason().orElse("lost"));
        notifier.flush();
        candidacy.recheck();
    }

    /** Settings of a {@link LeaderLatch}: those of {@link ElectionBuilder}, and where listeners run. */
    public static final class Builder extends ElectionBuilder<Builder> {
        private Executor executor;

        private Builder(BatonClient client, String path, String participantId) {
            super("LeaderLatch", client, path, participantId, Line.LATCH);
        }

        /**
         * Where listeners run (one call at a time, in order). Default: the client's async executor.
         * If it refuses a call ({@code RejectedExecutionException}, a bounded pool that is full)
         * while the client is open, the calls wait, in order, and are handed to it again until it
         * takes them, with a WARN at most every 30 s (a {@code close()} that tells {@code notLeader}
         * waits for that). Once the client is closed, or the executor is shut down, they run on the
         * thread that hands them over instead.
         *
         * @param listenerExecutor where listeners run (one call at a time, in order)
         * @return this builder
         */
        public Builder listenerExecutor(Executor listenerExecutor) {
            this.executor = Objects.requireNonNull(listenerExecutor, "listenerExecutor");
            return this;
        }

        /** {@return a latch with these settings, not yet started} */
        public LeaderLatch build() {
            return new LeaderLatch(this);
        }
    }
}

package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
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
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election by turns: each selector waits in line, then runs
 * {@link LeaderSelectorListener#takeLeadership} on its own thread, and leads until that returns.
 *
 * <p>Algorithm. A turn takes a place in line through the contention engine (node {@code
 * _c_<uuid>-lock-<seq>}, data = participant id; Curator's layout) and is granted only after a
 * listing shows its node first on the current session (see {@link LeaderLatch}); it then starts
 * a {@link Holding} under the {@link LeadershipPolicy} and calls {@code takeLeadership}. When the
 * holding is lost, or the selector is closed, the thread is interrupted. When {@code
 * takeLeadership} returns (or throws: logged with its stack trace), the node is deleted and the
 * next participant leads. With {@link #autoRequeue()} the selector then takes a new turn.
 *
 * <p>Guarantees and caveats. Leadership lasts exactly as long as {@code takeLeadership} runs:
 * the node is deleted only after it returned, so nobody else is elected while it runs, even if
 * it ignores the interrupt; closing the client first closes the selector the same way, before the
 * session ends. {@link #hasLeadership()} turns false the moment leadership is lost,
 * before the work has stopped. Under pauses and partitions the same holds as for a latch: at most
 * one leader when the leader sees the loss first (close, CONNECTION, LEASE), and a fencing token
 * ({@link LeaderSelectorListener#takeLeadership(BatonClient, long)}) for when it cannot.
 *
 * <pre>{@code
 * LeaderSelector selector = new LeaderSelector(client, "/jobs/compaction/leader", "node-3",
 *     c -> compactUntilInterrupted());
 * selector.autoRequeue();
 * selector.start();
 * }</pre>
 */
public final class LeaderSelector implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderSelector.class);
    private static final AtomicInteger THREADS = new AtomicInteger();

    /** Where a selector is in its life. */
    public enum State {
        /** Built, not started. */
        LATENT,
        /** A turn is in line (or confirming its node). */
        QUEUED,
        /** {@code takeLeadership} is running and leadership is valid. */
        LEADING,
        /** Leadership was lost or given up: the thread is interrupted, {@code takeLeadership} has not returned yet. */
        RELINQUISHING,
        /** No turn queued (started without auto-requeue, and the turn is over). */
        IDLE,
        /** Closed for good. */
        CLOSED
    }

    private final BatonClient client;
    private final String path;
    private final String participantId;
    private final LeaderSelectorListener listener;
    private final Leadership leadership;
    private final Line line;
    private final ThreadFactory threads;
    /** Counts the client's connection changes (any kind), and close(): what a failed turn waits for. */
    private final ChangeSignal connectionChanges = new ChangeSignal();
    private final ConnectionStateListener connectionListener = ConnectionChanges.onChange(change -> connectionChanges.bump());
    /** Closes the selector when its client closes, before the session (and the node with it) ends. */
    private final ClientClosingListener closesWithClient = this::close;

    // guarded by this (and so is the term in leadership: there exactly while LEADING)
    private State state = State.LATENT;
    private boolean autoRequeue;
    private boolean turnWanted;
    private Thread thread;
    private byte[] published;

    /**
     * A selector with the default settings (see {@link Builder}).
     *
     * @param client the client whose session the selector's node belongs to
     * @param path the election's folder, such as {@code /jobs/compaction/leader}
     * @param participantId what this participant publishes in its node (at most {@link
     *     ElectionBuilder#MAX_PARTICIPANT_ID_BYTES} in UTF-8)
     * @param listener the work to run while leading
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public LeaderSelector(BatonClient client, String path, String participantId, LeaderSelectorListener listener) {
        this(builder(client, path, participantId, listener));
    }

    private LeaderSelector(Builder b) {
        this.client = b.client;
        this.path = b.path;
        this.participantId = b.participantId;
        this.listener = b.listener;
        this.leadership = b.leadership(this, "selector");
        this.line = leadership.line();
        this.threads = b.threads != null ? b.threads : r -> {
            Thread t = new Thread(r, "baton-leader-selector-" + THREADS.incrementAndGet() + "-" + b.path);
            t.setDaemon(true);
            return t;
        };
        this.published = b.participantId.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Configures a selector: policy, lease margin, thread factory.
     *
     * @param client the client whose session the selector's node belongs to
     * @param path the election's folder, such as {@code /jobs/compaction/leader}
     * @param participantId what this participant publishes in its node (at most {@link
     *     ElectionBuilder#MAX_PARTICIPANT_ID_BYTES} in UTF-8)
     * @param listener the work to run while leading
     * @return a builder; {@link Builder#build()} makes the selector
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public static Builder builder(BatonClient client, String path, String participantId, LeaderSelectorListener listener) {
        return new Builder(client, path, participantId, listener);
    }

    /**
     * Queues the first turn. Needs no connection: without one it returns at once and the turn
     * joins the line when the client connects.
     *
     * @throws IllegalStateException if it was started before, or closed (a closed selector cannot start
     *     again: build a new one)
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws ClientClosedException if the client is closed (no turn could ever come)
     */
    public void start() {
        // unstarted, it would wait for a connection that a client never started never makes
        client.requireStarted("start the leader selector", path);
        synchronized (this) {
            Leadership.checkNotStarted("selector", path, state);
            moveTo(State.IDLE);
        }
        client.addConnectionStateListener(connectionListener);
        client.addConnectionStateListener(closesWithClient);
        if (client.isClosed()) {
            close(); // closed since the check above: the hook may have come too late
            throw new ClientClosedException("start the leader selector", path);
        }
        requeue();
    }

    /** After each turn, take a new one (until closed). */
    public synchronized void autoRequeue() {
        autoRequeue = true;
    }

    /**
     * Queues one more turn (after the current one, if any). Returns false if one was already
     * queued.
     *
     * @return whether a turn was queued (false if one already was)
     * @throws IllegalStateException before start; {@link ElectionClosedException} after close
     */
    public boolean requeue() {
        synchronized (this) {
            switch (state) {
                case LATENT -> throw new IllegalStateException("selector on " + path + " is not started: call start() first");
                case CLOSED -> throw new ElectionClosedException("selector on " + path + " is closed");
                case IDLE, QUEUED, LEADING, RELINQUISHING -> {
                    // a turn can be queued
                }
            }
            if (turnWanted) {
                return false;
            }
            turnWanted = true;
            if (thread != null) {
                return true;
            }
            thread = threads.newThread(this::turns);
        }
        thread.start();
        return true;
    }

    /** {@return whether {@code takeLeadership} is running and leadership is still valid under the policy} */
    public boolean hasLeadership() {
        return leadership.hasLeadership();
    }

    /** {@return the current term's token while leading, else {@link LeaderLatch#NO_TOKEN}} */
    public long leadershipToken() {
        return leadership.leadershipToken();
    }

    /** Ends the current term: interrupts {@code takeLeadership}. */
    public synchronized void interruptLeadership() {
        if (state == State.LEADING) {
            leadership.end();
            moveTo(State.RELINQUISHING);
            thread.interrupt();
        }
    }

    /**
     * Replaces the id this leader publishes, without a new election.
     *
     * @param id the id to publish
     * @throws NotLeaderException if this selector does not lead
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public void proclaim(String id) throws InterruptedException {
        byte[] data = leadership.proclaim(id);
        synchronized (this) {
            published = data;
        }
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

    /**
     * Leaves the election: interrupts the thread and waits until {@code takeLeadership} has
     * returned and the node is deleted (unless called from {@code takeLeadership} itself). Closing
     * the selector's client does this too, before the session ends: the selector and its client may
     * be closed in either order, or at once. A second call waits as the first does.
     */
    @Override
    public void close() {
        Thread running;
        boolean first;
        synchronized (this) {
            first = state != State.CLOSED;
            if (first) {
                leadership.end();
                moveTo(State.CLOSED);
            }
            running = thread; // null once the turns have ended
        }
        if (first) {
            client.removeConnectionStateListener(connectionListener);
            connectionChanges.bump(); // wakes a failed turn waiting for a connection change
            if (running != null) {
                running.interrupt();
            }
        }
        // a close already under way elsewhere (a shutdown hook, while the client closes on another) is waited for
        // too: the client's close must not end the session while takeLeadership still runs
        if (running == Thread.currentThread()) {
            return; // the turns' end removes the closing listener
        }
        if (running != null) {
            try {
                running.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // still under way: a client closed meanwhile must find this close, and wait for it
            }
        }
        // only now: a client closed meanwhile (on another thread) must find this close, and wait for it
        client.removeConnectionStateListener(closesWithClient);
    }

    /** {@return where the selector is in its life} */
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

    @Override
    public String toString() {
        return "LeaderSelector[" + path + ", " + participantId + ", " + state() + "]";
    }

    // ---- the selector's thread ----

    /** The one transition method: checks the move is legal. Caller holds the lock. */
    private void moveTo(State next) {
        Leadership.checkMove(switch (state) {
            case LATENT -> next == State.IDLE || next == State.CLOSED;
            case IDLE -> next == State.QUEUED || next == State.CLOSED;
            case QUEUED -> next == State.QUEUED || next == State.LEADING || next == State.IDLE || next == State.CLOSED;
            case LEADING -> next == State.RELINQUISHING || next == State.QUEUED || next == State.CLOSED;
            case RELINQUISHING -> next == State.QUEUED || next == State.CLOSED;
            case CLOSED -> false;
        }, "selector on " + path, state, next);
        state = next;
        notifyAll();
    }

    private void turns() {
        while (true) {
            synchronized (this) {
                if (state == State.CLOSED || !turnWanted) {
                    if (state != State.CLOSED) {
                        moveTo(State.IDLE);
                    } else {
                        client.removeConnectionStateListener(closesWithClient); // closed from takeLeadership, say
                    }
                    thread = null;
                    return;
                }
                turnWanted = autoRequeue;
                moveTo(State.QUEUED);
            }
            try {
                turn();
            } catch (InterruptedException e) {
                LOG.debug("selector {} on {}: turn interrupted", participantId, path);
            } catch (BatonException e) {
                awaitNextConnection(e);
            }
            Thread.interrupted(); // an interrupt ends one turn, never the next
        }
    }

    private void turn() throws InterruptedException {
        byte[] data;
        synchronized (this) {
            data = published;
        }
        // the engine's hold comes from a listing that shows the node first (Line.LISTED_MUTEX)
        Ticket mine = line.contention().acquireBlocking(data);
        Holding watch = leadership.monitor(mine);
        boolean lead;
        synchronized (this) {
            // closed meanwhile, or disconnected again already: no term; give the node back
            lead = state == State.QUEUED && watch.isValid();
            if (lead) {
                moveTo(State.LEADING);
                leadership.begin(watch);
            } else if (state == State.QUEUED) {
                turnWanted = true;
            }
        }
        if (!lead) {
            leadership.giveBack(watch);
            return;
        }
        watch.onLost(() -> lost(watch));
        try {
            listener.takeLeadership(client, mine.fencingToken());
        } catch (InterruptedException e) {
            LOG.debug("selector {} on {}: takeLeadership ended by interrupt", participantId, path);
        } catch (Throwable e) {
            if (e instanceof VirtualMachineError fatal) {
                throw fatal; // out of memory or stack: nothing sensible to do here (finally still releases)
            }
            LOG.error("takeLeadership of selector {} on {} threw; leadership released", participantId, path, e);
        } finally {
            synchronized (this) {
                leadership.end();
                if (state == State.LEADING || state == State.RELINQUISHING) {
                    moveTo(State.QUEUED);
                }
            }
            leadership.giveBack(watch);
        }
    }

    private void lost(Holding which) {
        synchronized (this) {
            if (!leadership.end(which)) {
                return; // interrupted, closed or over already
            }
            moveTo(State.RELINQUISHING);
            thread.interrupt();
        }
        LOG.info("selector {} on {} lost leadership: {}", participantId, path, which.lossReason().orElse("lost"));
    }

    /** A turn failed: try again once connected (connection trouble) or after the next connection change (anything else). */
    private void awaitNextConnection(BatonException failure) {
        if (failure instanceof ClientClosedException || client.isClosed()) {
            return;
        }
        boolean connectionTrouble = Line.curedByNextJoin(failure);
        if (connectionTrouble) {
            LOG.info("selector {} on {}: turn failed ({}); trying again once connected", participantId, path, failure.toString());
        } else {
            LOG.error("selector {} on {}: turn failed; trying again after the next connection change", participantId, path, failure);
        }
        // the generation comes first: a change (or close()) after it ends the wait at once
        long seen = connectionChanges.generation();
        synchronized (this) {
            turnWanted = true;
            if (state == State.CLOSED) {
                return;
            }
        }
        if (connectionTrouble && client.connectionState().isWritable()) {
            return;
        }
        try {
            connectionChanges.awaitChange(seen, Deadline.none());
        } catch (InterruptedException e) {
            // close() interrupts this thread: the loop of turns sees CLOSED (the interrupt is not kept)
        }
    }

    /** Settings of a {@link LeaderSelector}: those of {@link ElectionBuilder}, and its thread factory. */
    public static final class Builder extends ElectionBuilder<Builder> {
        private final LeaderSelectorListener listener;
        private ThreadFactory threads;

        private Builder(BatonClient client, String path, String participantId, LeaderSelectorListener listener) {
            super("LeaderSelector", client, path, participantId, Line.SELECTOR);
            this.listener = Objects.requireNonNull(listener, "listener");
        }

        /**
         * Makes the selector's thread. Default: daemon threads named after the election.
         *
         * @param factory makes the thread that runs {@code takeLeadership}
         * @return this builder
         */
        public Builder threadFactory(ThreadFactory factory) {
            this.threads = Objects.requireNonNull(factory, "threadFactory");
            return this;
        }

        /** {@return a selector with these settings, not yet started} */
        public LeaderSelector build() {
            return new LeaderSelector(this);
        }
    }
}

package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.Failures;
import dev.baton.framework.contention.Ticket;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A latch's place in line, kept without a thread: join through the contention engine, offer the
 * node the engine granted to the owner, and after a loss confirm the node before leading again.
 *
 * <p>The engine grants only after a listing that shows the node first, on the client's current
 * session ({@link Line#LISTED_MUTEX}). After a loss the node is confirmed by reading it: the latch
 * leads again only if it still exists, is the node this candidacy created (same creation zxid)
 * and the client's current session owns it ({@link Line#isMine}). A node that fails this is
 * deleted (it may be left by an earlier session) and the candidacy joins the back of the line.
 * When the answer is unknown (no connection), it asks again on the next connection. Every step
 * checks that it is still the current one, so a late reply or watch from an earlier attempt
 * never grants anything.
 */
final class Candidacy {
    private static final Logger LOG = LoggerFactory.getLogger(Candidacy.class);

    /** The owner's side of a grant. */
    @FunctionalInterface
    public interface Owner {
        /**
         * The node {@code ticket} is confirmed first in line. Return whether the owner now leads;
         * false (it cannot trust the connection right now) makes the candidacy confirm again on
         * the next connection.
         */
        boolean lead(Ticket ticket);
    }

    private final BatonClient client;
    private final Line line;
    private final String name;
    private final Owner owner;
    private final ConnectionStateListener onConnection = ConnectionChanges.onConnected(this::resume);

    // guarded by this
    private byte[] data;
    private boolean active;
    private boolean leading;
    private boolean resumeWhenConnected;
    private CompletableFuture<Ticket> attempt;
    private Ticket ticket;

    public Candidacy(BatonClient client, Line line, byte[] data, String name, Owner owner) {
        this.client = Objects.requireNonNull(client, "client");
        this.line = Objects.requireNonNull(line, "line");
        this.data = data.clone();
        this.name = name;
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    /** Joins the line. */
    public void start() {
        synchronized (this) {
            active = true;
        }
        client.addConnectionStateListener(onConnection);
        join();
    }

    /** The owner stopped leading: confirm the node again (now if connected) and lead again if it passes. */
    public void recheck() {
        synchronized (this) {
            leading = false;
        }
        stall(true);
    }

    /** What the node publishes from now on (also after joining again). */
    public synchronized void publishing(byte[] newData) {
        this.data = newData.clone();
    }

    /** Leaves the line: stops every step; returns the node still to be deleted (null if none). */
    public Ticket leave() {
        Ticket mine;
        CompletableFuture<Ticket> inLine;
        synchronized (this) {
            active = false;
            mine = ticket;
            inLine = attempt;
            ticket = null;
            attempt = null;
        }
        client.removeConnectionStateListener(onConnection);
        if (inLine != null) {
            inLine.cancel(false); // the engine deletes the node it made
        }
        return mine;
    }

    /** Takes a place at the back of the line through the engine. */
    private void join() {
        CompletableFuture<Ticket> mine;
        synchronized (this) {
            if (!active || attempt != null || ticket != null) {
                return;
            }
            mine = line.contention().acquire(data);
            attempt = mine;
        }
        mine.whenComplete((t, e) -> joined(mine, t, e));
    }

    private void joined(CompletableFuture<Ticket> which, Ticket held, Throwable failure) {
        boolean current;
        synchronized (this) {
            current = active && which == attempt;
            if (current) {
                attempt = null;
                ticket = held;
            }
        }
        if (!current) {
            if (held != null) {
                line.contention().release(held); // superseded or left while the engine worked
            }
        } else if (failure != null) {
            failedToJoin(Failures.unwrap(failure));
        } else {
            offer(held); // the engine's hold comes from a listing: see Line.LISTED_MUTEX
        }
    }

    private void confirm(Ticket mine) {
        line.stillMine(mine).whenComplete((ours, failure) -> {
            synchronized (this) {
                if (!active || leading || ticket != mine) {
                    return; // a newer step owns the candidacy
                }
            }
            if (failure != null) {
                LOG.debug("{}: could not confirm {} ({}); again once connected", name, mine.name(), failure.toString());
                stall(true);
            } else if (!ours) {
                LOG.info("{}: node {} is gone or belongs to an earlier session; joining again", name, mine.name());
                synchronized (this) {
                    if (ticket != mine) {
                        return;
                    }
                    ticket = null;
                }
                line.contention().release(mine);
                join();
            } else {
                offer(mine);
            }
        });
    }

    private void offer(Ticket mine) {
        synchronized (this) {
            if (!active || leading || ticket != mine) {
                return;
            }
            leading = true;
        }
        // the owner decides under its own lock; ours is not held, so it may call back into us
        if (!owner.lead(mine)) {
            recheck();
        }
    }

    private void failedToJoin(Throwable cause) {
        if (cause instanceof ClientClosedException || client.isClosed()) {
            LOG.debug("{}: client closed", name);
            return;
        }
        boolean connection = Line.curedByNextJoin(cause);
        if (connection) {
            LOG.info("{} could not join ({}); joining again once connected", name, cause.toString());
        } else {
            LOG.error("{} could not join the election; trying again after the next reconnection", name, cause);
        }
        stall(connection);
    }

    /**
     * Resumes (confirm the node, or join) on the next connection, or now if connected and {@code
     * tryNow}. Connected means to a writable server: on a read-only one (READ_ONLY counts as
     * SUSPENDED for leadership) the confirmation would pass and the owner refuse, over and over.
     */
    private void stall(boolean tryNow) {
        synchronized (this) {
            if (!active || leading) {
                return;
            }
            resumeWhenConnected = true;
        }
        ConnectionState now = client.connectionState();
        if (tryNow && now.isWritable()) {
            resume();
        }
    }

    private void resume() {
        Ticket recheck;
        synchronized (this) {
            if (!active || leading || !resumeWhenConnected) {
                return;
            }
            resumeWhenConnected = false;
            recheck = ticket;
        }
        if (recheck != null) {
            confirm(recheck);
        } else {
            join();
        }
    }
}

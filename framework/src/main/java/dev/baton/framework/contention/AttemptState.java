package dev.baton.framework.contention;

import dev.baton.framework.ClientClosedException;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.internal.Errors;
import dev.baton.framework.internal.Futures;
import dev.baton.framework.internal.WakeUps;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import org.apache.zookeeper.Watcher;

/**
 * What one acquisition is in, and how it starts over or ends: its current ticket (or the create
 * in flight) and the engine's watch on that ticket's node, the generation that outdates replies and
 * events of earlier steps, and the result; the transitions that give a lost ticket up and take a
 * new one at the back of the line (its node went, its session ended or was left behind), that
 * fail the attempt, and that abandon it (timed out, cancelled, failed: its node is deleted). The
 * forward steps — take a ticket, list, decide, watch, hold — are {@link Attempt}'s; the runners
 * that drive an attempt are {@link AttemptRunners}.
 *
 * <p>Its steps run one at a time on {@code steps}, never on ZooKeeper's thread, where replies (see
 * {@link WakeUps}) and the engine's own watches only hand the next step over. Its mutable fields are
 * guarded by {@code this}, shared with {@link Attempt}'s steps.
 */
abstract sealed class AttemptState<R> permits Attempt {
    final Contention engine;
    final Executor steps;
    final CompletableFuture<R> result = new CompletableFuture<>();
    CompletableFuture<CreatedNode> creating;
    Ticket ticket;
    OwnNodeWatch own;
    int generation;

    AttemptState(Contention engine, Executor steps) {
        this.engine = engine;
        this.steps = steps;
    }

    /** Takes a ticket (the first, or a new one at the back of the line after a loss). */
    abstract void takeTicket();

    /** Takes the first ticket; a result completed without a hold (timed out, cancelled, failed) abandons it. */
    void begin() {
        result.whenComplete((held, e) -> {
            if (held == null) {
                abandon();
            }
        });
        takeTicket();
    }

    /**
     * Runs {@code step} on this attempt's executor once {@code reply} completes. A reply that
     * failed because the client is closed ends the attempt where it arrives: a closed client's
     * executor no longer runs steps, so handing it over would leave the result pending forever.
     */
    <T> void then(CompletableFuture<T> reply, BiConsumer<T, Throwable> step) {
        reply.whenComplete((value, e) -> {
            if (e != null && Errors.unwrap(e) instanceof ClientClosedException closed) {
                result.completeExceptionally(closed);
                return;
            }
            steps.execute(() -> step.accept(value, e));
        });
    }

    /** A watcher that only hands the event to this attempt's executor. */
    Watcher watcher(Watcher step) {
        return (WakeUps.DirectWatcher) event -> steps.execute(() -> step.process(event));
    }

    synchronized boolean current(int gen) {
        return gen == generation && !result.isDone();
    }

    /** Our own node is gone (its watch said so): take a new ticket. */
    void lostOwnNode(Ticket mine, String end) {
        synchronized (this) {
            if (ticket != mine || result.isDone()) {
                return;
            }
            generation++;
        }
        if (OwnNodeWatch.EXPIRED.equals(end)) {
            engine.release(mine); // it may outlive the session the client gave up on (see giveBack)
        }
        takeTicket();
    }

    /**
     * Whether the client has left the session that owns our node: it gave up on it (suspended
     * past the session timeout) and the retry loop finished a step on the new session. No watch
     * of ours covers that node any more and it goes whenever the servers expire its session:
     * give it back and take a ticket of the current session. (With a watch already set when the
     * session went, the Expired event does the same.)
     */
    boolean leftBehind(Ticket mine, int gen) {
        if (engine.client().sessionId() == mine.sessionId()) {
            return false;
        }
        engine.release(mine);
        lostTicket(gen);
        return true;
    }

    /**
     * Our session ended: take a new ticket, and delete the old node in case it outlives the
     * session on the servers (the client gave up on the session before the servers expired it),
     * so it does not hold up the line until then.
     */
    void giveBack(int gen) {
        Ticket old;
        synchronized (this) {
            if (gen != generation || result.isDone()) {
                return;
            }
            old = ticket;
        }
        if (old != null) {
            engine.release(old);
        }
        lostTicket(gen);
    }

    /** Our node vanished while we waited (session expired, or deleted by someone): take a new ticket. */
    void lostTicket(int gen) {
        synchronized (this) {
            if (gen != generation || result.isDone()) {
                return;
            }
            generation++;
        }
        takeTicket();
    }

    void fail(Throwable e) {
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
            engine.release(abandoned);
        } else if (inFlight != null) {
            inFlight.cancel(false);
        }
    }
}

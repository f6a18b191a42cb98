package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.TransactionBuilder;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.zookeeper.KeeperException;

/**
 * The grant of one ticket's node, watched by a {@link Holding} under the client's error policy.
 *
 * <p>Giving it back deletes the node in the ticket's own session ({@code delete().inSession}):
 * an answer there proves the node was still in place, so the hold lasted until the delete. A
 * holder that was frozen past its session and releases before its client notices gets no such
 * answer — the session is over, or the node is gone — and the delete fails with
 * {@link OwnershipLostException}, which a {@link Grant} passes on from its release.
 */
public final class TicketHold implements Hold {
    /** Grant nodes are never written after creation, so they stay at their first version. */
    private static final int CREATED_VERSION = 0;

    private final BatonClient client;
    private final Ticket ticket;
    private final Holding holding;
    private final Function<Ticket, CompletableFuture<Void>> deleter;

    private TicketHold(BatonClient client, Ticket ticket, Holding holding, Function<Ticket, CompletableFuture<Void>> deleter) {
        this.client = client;
        this.ticket = ticket;
        this.holding = holding;
        this.deleter = deleter;
    }

    /**
     * Starts monitoring {@code ticket} under the client's error policy; {@code deleter} gives its
     * node back (a guaranteed, quiet delete, such as {@link Contention#release}).
     *
     * @param client the client the ticket's node was created through
     * @param ticket the held node
     * @param deleter gives the node back
     * @return the hold
     */
    public static TicketHold start(BatonClient client, Ticket ticket, Function<Ticket, CompletableFuture<Void>> deleter) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(ticket, "ticket");
        Objects.requireNonNull(deleter, "deleter");
        return new TicketHold(client, ticket, Holding.monitor(client, ticket, client.errorPolicy()), deleter);
    }

    /** The hold of a ticket {@code engine} granted, watched through the engine's own watch on its node. */
    static TicketHold granted(Contention engine, Ticket ticket, OwnNodeWatch watch, LateWatches late) {
        BatonClient client = engine.client();
        return new TicketHold(client, ticket, Holding.monitor(client, ticket, client.errorPolicy(), watch, late), engine::release);
    }

    /** {@return the held node} */
    public Ticket ticket() {
        return ticket;
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
    public boolean isValid() {
        return holding.isValid();
    }

    @Override
    public Optional<String> lossReason() {
        Optional<String> reason = holding.lossReason();
        if (reason.isPresent() || holding.isValid()) {
            return reason;
        }
        // the monitor has not heard yet, but the state already says so
        return Optional.of("connection state " + client.connectionState() + " under error policy " + client.errorPolicy());
    }

    @Override
    public void onLost(Runnable callback) {
        holding.onLost(Objects.requireNonNull(callback, "callback"));
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

    /** Stops watching without deleting (the node is given back by whoever owns the ticket). */
    public void stopMonitoring() {
        holding.close();
    }

    /**
     * Stops watching and deletes the node in the ticket's own session. The future completes when
     * the servers deleted it there — proof that the hold lasted until the delete; it fails with
     * {@link OwnershipLostException} when the hold cannot be shown to have lasted (its session
     * ended first, its node was already gone, or — under {@link ErrorPolicy#STANDARD} — no answer
     * came); on any other failure to get an answer the node is deleted in the background (or went
     * with its session).
     */
    @Override
    public CompletableFuture<Void> delete() {
        holding.close();
        if (client.sessionId() != ticket.sessionId()) {
            return CompletableFuture.failedFuture(sessionEnded());
        }
        return client.delete().inSession(ticket.sessionId()).forPathAsync(ticket.path()).handle((v, e) -> {
            RuntimeException verdict = verdict(e);
            if (verdict != null) {
                throw verdict;
            }
            return null;
        });
    }

    /**
     * {@link #delete()} with the client's blocking call while connected: the reply wakes this
     * thread directly, with none of the hand-offs of the asynchronous form (it matters to short
     * holds). Not connected to a writable server, it does not wait: the delete goes on in the
     * background.
     *
     * @throws OwnershipLostException when the hold cannot be shown to have lasted until the delete
     */
    @Override
    public void deleteAndWait(String what) {
        if (!connected()) {
            delete();
            return;
        }
        holding.close();
        if (client.sessionId() != ticket.sessionId()) {
            throw sessionEnded();
        }
        try {
            client.delete().inSession(ticket.sessionId()).forPath(ticket.path());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            deleter.apply(ticket);
        } catch (RuntimeException e) {
            RuntimeException verdict = verdict(e);
            if (verdict != null) {
                throw verdict;
            }
        }
    }

    /**
     * What a failed delete in the ticket's session says about the hold: the exception to report,
     * or null when nothing is known against it (the delete goes on in the background and the
     * error policy keeps the hold through a disconnect).
     */
    private RuntimeException verdict(Throwable failure) {
        if (failure == null) {
            return null;
        }
        Throwable cause = Acquisitions.unwrap(failure);
        if (cause instanceof NoNodeException) {
            // the first attempt found no node: the session ended or someone deleted it
            return new OwnershipLostException(ticket.name() + " was already gone when it was given back");
        }
        if (cause instanceof SessionExpiredException) {
            return sessionEnded();
        }
        if (cause instanceof ClientClosedException) {
            return null; // closing the client ended the session: the node went with it
        }
        if (!unanswered(cause)) {
            return Acquisitions.rethrow(cause);
        }
        deleter.apply(ticket); // guaranteed: the node goes in the background, or went with its session
        if (client.sessionId() != ticket.sessionId()) {
            return sessionEnded();
        }
        if (client.errorPolicy().isLoss(ConnectionState.SUSPENDED)) {
            return new OwnershipLostException("no answer to the delete of " + ticket.name() + " (" + cause.getMessage()
                + "): under the " + client.errorPolicy() + " policy a hold that cannot be shown alive counts as lost");
        }
        return null;
    }

    /** A failure that leaves the delete unanswered: no connection, or no writable server. */
    private static boolean unanswered(Throwable cause) {
        return Acquisitions.isConnectionTrouble(cause)
            || cause instanceof BatonException b && b.code() == KeeperException.Code.NOTREADONLY;
    }

    private OwnershipLostException sessionEnded() {
        return new OwnershipLostException("session 0x" + Long.toHexString(ticket.sessionId()) + ", which owns "
            + ticket.name() + ", ended before the servers answered its delete");
    }
}

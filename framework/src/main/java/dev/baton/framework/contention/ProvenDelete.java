package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.SessionExpiredException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.zookeeper.KeeperException;

/**
 * The end of a {@link Holding}: its ticket's node deleted in the ticket's own session
 * ({@code delete().inSession}), so that the servers' answer proves the node was still in place and
 * the hold lasted until the delete. A holder that was frozen past its session and releases before its
 * client notices gets no such answer — the session is over, or the node is gone — and the delete fails
 * with {@link OwnershipLostException}. Where no answer can come (no connection, no writable server)
 * the node is deleted in the background instead, or went with its session; whether the hold then
 * counts as lost is the client's {@link ErrorPolicy}'s call.
 */
final class ProvenDelete {
    private final BatonClient client;
    private final Ticket ticket;
    /** Gives the node back in the background (a guaranteed, quiet delete). */
    private final Function<Ticket, CompletableFuture<Void>> deleter;

    ProvenDelete(BatonClient client, Ticket ticket, Function<Ticket, CompletableFuture<Void>> deleter) {
        this.client = client;
        this.ticket = ticket;
        this.deleter = deleter;
    }

    /**
     * Deletes the node in the ticket's own session. The future completes when the servers deleted it
     * there; it fails with {@link OwnershipLostException} when the hold cannot be shown to have lasted
     * (its session ended first, its node was already gone, or — under {@link ErrorPolicy#STANDARD} — no
     * answer came); on any other failure to get an answer the node is deleted in the background (or
     * went with its session).
     */
    CompletableFuture<Void> delete() {
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
     * {@link #delete()} with the client's blocking call, for a connected client: the reply wakes this
     * thread directly, with none of the hand-offs of the asynchronous form (it matters to short holds).
     * An interrupt is kept and leaves the node to the background delete.
     *
     * @throws OwnershipLostException when the hold cannot be shown to have lasted until the delete
     */
    void deleteAndWait() {
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
        Throwable cause = Failures.unwrap(failure);
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
            return Failures.rethrow(cause);
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
        return Failures.goesInBackground(cause)
            || cause instanceof BatonException b && b.code() == KeeperException.Code.NOTREADONLY;
    }

    private OwnershipLostException sessionEnded() {
        return new OwnershipLostException("session 0x" + Long.toHexString(ticket.sessionId()) + ", which owns "
            + ticket.name() + ", ended before the servers answered its delete");
    }
}

package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.TransactionBuilder;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** The grant of one ticket's node, watched by a {@link Holding} under the client's error policy. */
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

    @Override
    public boolean connected() {
        return client.connectionState().isConnected();
    }

    /** Stops watching without deleting (the node is given back by whoever owns the ticket). */
    public void stopMonitoring() {
        holding.close();
    }

    @Override
    public CompletableFuture<Void> delete() {
        holding.close();
        return deleter.apply(ticket);
    }

    /**
     * Deletes with the client's blocking call while connected: the reply wakes this thread
     * directly, with none of the hand-offs of the asynchronous form (it matters to short holds).
     */
    @Override
    public void deleteAndWait(String what) {
        if (!connected()) {
            delete();
            return;
        }
        holding.close();
        try {
            client.delete().quietly().guaranteed().forPath(ticket.path());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.delete().quietly().guaranteed().forPathAsync(ticket.path());
        } catch (RuntimeException e) {
            if (!Acquisitions.isConnectionTrouble(e)) {
                throw e;
            }
            // guaranteed: the client keeps deleting in the background
        }
    }
}

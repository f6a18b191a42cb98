package dev.baton.recipes.transaction;

import dev.baton.framework.BatonClient;
import dev.baton.framework.TransactionBuilder;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Every write of the protocol. Each is one ZooKeeper request, retried by the client's retry loop;
 * a retry after a lost reply either succeeds as the same write (idempotent creates) or fails as
 * {@link Reads#settled settled}, because the first attempt took effect. None creates a missing
 * parent: a transaction's nodes are never brought back once cleaned up.
 */
final class Writes {
    private Writes() {
    }

    /**
     * Casts {@code participant}'s vote. A commit vote is its own node. An abort vote is created in
     * one ZooKeeper transaction with the abort decision it implies, so an abort vote never sits
     * undecided: that write fails (nothing applied) if a decision is already recorded.
     */
    static CompletableFuture<Void> vote(BatonClient client, String txPath, String participant, Vote vote, String reason) {
        String path = Layout.vote(txPath, participant);
        if (vote == Vote.COMMIT) {
            return client.create().idempotent().forPathAsync(path, Codec.vote(Vote.COMMIT, null)).thenApply(p -> null);
        }
        Decision abort = new Decision(Outcome.ABORT, participant + Tally.VOTED_ABORT + (reason == null ? "" : ": " + reason)
            + " (recorded by " + participant + ")");
        return client.transaction()
            .create(path, Codec.vote(Vote.ABORT, reason))
            .create(Layout.decision(txPath), Codec.decision(abort))
            .commitAsync().thenApply(r -> null);
    }

    /**
     * Records {@code tally} as the decision: one ZooKeeper transaction that checks each vote it
     * relies on is still the node that was read (votes are written once, so version 0) and
     * creates the decision node. It fails, applying nothing, if a decision is already there.
     */
    static CompletableFuture<Void> record(BatonClient client, String txPath, Tally tally) {
        TransactionBuilder tx = client.transaction();
        for (String participant : tally.relyOn()) {
            tx.check(Layout.vote(txPath, participant), 0);
        }
        return tx.create(Layout.decision(txPath), Codec.decision(tally.decision())).commitAsync().thenApply(r -> null);
    }

    /** Records that {@code participant} was told {@code outcome}. */
    static CompletableFuture<Void> ack(BatonClient client, String txPath, String participant, Outcome outcome) {
        return client.create().idempotent().forPathAsync(Layout.ack(txPath, participant), Codec.ack(outcome)).thenApply(p -> null);
    }

    /** Records that the coordinator read the decision (or stopped waiting for it). */
    static CompletableFuture<Void> coordinatorAck(BatonClient client, String txPath) {
        return client.create().idempotent().forPathAsync(Layout.coordinatorAck(txPath), new byte[0]).thenApply(p -> null);
    }

    /**
     * After this site's acknowledgement: reads the names of transaction {@code tx}'s children and, if every party has
     * acknowledged, deletes it. The read follows the site's own acknowledgement, so of the last
     * two acknowledgements the later one's site sees both: the transaction is cleaned up by
     * someone, usually by one site only.
     */
    static CompletableFuture<Void> cleanUpIfDone(BatonClient client, String txPath, Transaction tx) {
        // names are enough to tell who acknowledged: the votes' and the decision's data are not read
        return Reads.childrenIfFullyAcknowledged(client, txPath, tx).thenCompose(children -> children.isPresent()
            ? delete(client, txPath, children.get())
            : CompletableFuture.completedFuture(null));
    }

    /** Deletes a decided transaction's nodes if it is still there. */
    static CompletableFuture<Void> cleanUpIfDecided(BatonClient client, String txPath) {
        return Reads.status(client, txPath).thenCompose(status -> status.filter(TransactionStatus::decided).isPresent()
            ? delete(client, txPath)
            : CompletableFuture.completedFuture(null));
    }

    /**
     * Deletes the transaction and all its children in one ZooKeeper transaction, so no reader
     * ever sees a decided transaction without its decision. A child added meanwhile makes it fail
     * whole (settled: a later clean-up takes it).
     */
    private static CompletableFuture<Void> delete(BatonClient client, String txPath) {
        return client.getChildren().forPathAsync(txPath).thenCompose(children -> delete(client, txPath, children));
    }

    /** Deletes the transaction and {@code children}, as {@link #delete(BatonClient, String)}: a child not listed makes it fail whole. */
    private static CompletableFuture<Void> delete(BatonClient client, String txPath, List<String> children) {
        TransactionBuilder tx = client.transaction();
        children.forEach(child -> tx.delete(txPath + "/" + child));
        return tx.delete(txPath).commitAsync().thenApply(r -> null);
    }

    /** A settled failure is no failure: the transaction moved on; anything else is passed on. */
    static CompletableFuture<Void> settledIsDone(CompletableFuture<Void> write) {
        return write.handle((v, e) -> {
            if (e == null || Reads.settled(e)) {
                return Optional.<Throwable>empty();
            }
            return Optional.of(Reads.unwrap(e));
        }).thenCompose(failure -> failure.isPresent()
            ? CompletableFuture.failedFuture(failure.get())
            : CompletableFuture.completedFuture(null));
    }
}

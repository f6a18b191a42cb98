package dev.baton.recipes.transaction;

/**
 * A participant's part in two-phase commit: prepare, then commit or abort. Called on the
 * participant's handler executor, never on ZooKeeper's threads, one call per transaction at a
 * time (prepare always returns before the same transaction's commit or abort is called).
 *
 * <p>Make prepare durable: before returning {@link Vote#COMMIT}, write down — in the
 * participant's own durable store, keyed by {@link Transaction#id()} — everything needed to
 * commit or to roll back, and hold the resources the commit needs. A participant that crashes
 * after voting is told the outcome by its next incarnation, usually without prepare being called
 * again (its vote is already on the servers), and must then find that record. Prepare may be
 * called again, though: when the earlier incarnation's vote was still on its way to the servers
 * as it died, the next one cannot see it yet. So prepare must look for its record first and, if
 * there is one, answer as recorded — the vote that counts is the one on the servers, which is the
 * earlier answer. For the same reason commit and abort must be idempotent: an incarnation that
 * crashes after being told but before its acknowledgement is written is told again by the next one.
 */
public interface TransactionHandler {
    /**
     * Prepares {@code tx}: do the work, make it durable, hold what the commit needs. Throwing is
     * voting abort.
     *
     * @param tx the transaction, with its payload
     * @return this participant's vote
     * @throws Exception anything: it is an abort vote, with the exception as its reason
     */
    Vote prepare(Transaction tx) throws Exception;

    /**
     * The transaction committed: apply what prepare held.
     *
     * @param tx the transaction
     * @throws Exception anything: logged, not acknowledged, so the next incarnation is told again
     */
    void commit(Transaction tx) throws Exception;

    /**
     * The transaction aborted: release what prepare held. Also called for a transaction decided
     * before this participant prepared it (nothing to release then), and for one whose nodes
     * vanished before this participant's vote was written (it cannot have committed without it).
     *
     * @param tx the transaction
     * @throws Exception anything: logged, not acknowledged, so the next incarnation is told again
     */
    void abort(Transaction tx) throws Exception;

    /**
     * This participant voted on {@code tx}, but its nodes vanished before it could read the
     * decision: it was away for longer than the folder's retention, or someone deleted the nodes.
     * The outcome cannot be learned from ZooKeeper any more; the participant logs this as an
     * error. Resolve it from the other participants' records. Default: nothing more.
     *
     * @param tx the transaction whose outcome is lost
     * @throws Exception anything: logged
     */
    default void outcomeUnknown(Transaction tx) throws Exception {
    }
}

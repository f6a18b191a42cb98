package dev.baton.recipes.transaction;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A transaction as its nodes showed it when read: the votes cast, the decision if one was
 * recorded, and who was told.
 *
 * @param transaction what was started
 * @param created when the servers created its node (the leader's clock: for people, not for deadlines)
 * @param votes the votes cast so far, by participant
 * @param decision the decision, once recorded
 * @param acknowledged the participants that were told the decision and acknowledged it
 * @param coordinatorAcknowledged whether the coordinator read the decision (or gave up waiting for it)
 */
public record TransactionStatus(Transaction transaction, Instant created, Map<String, Vote> votes, Optional<Decision> decision,
                                Set<String> acknowledged, boolean coordinatorAcknowledged) {
    /**
     * Copies the votes and acknowledgements into sorted, unmodifiable collections.
     *
     * @param transaction what was started
     * @param created when the servers created its node
     * @param votes the votes cast so far, by participant
     * @param decision the decision, once recorded
     * @param acknowledged the participants that acknowledged the decision
     * @param coordinatorAcknowledged whether the coordinator acknowledged it
     */
    public TransactionStatus {
        Objects.requireNonNull(transaction, "transaction");
        votes = Collections.unmodifiableMap(new TreeMap<>(votes));
        Objects.requireNonNull(decision, "decision");
        acknowledged = Collections.unmodifiableSet(new TreeSet<>(acknowledged));
    }

    /**
     * The transaction's id.
     *
     * @return the id (its node's name)
     */
    public String id() {
        return transaction.id();
    }

    /**
     * Whether a decision was recorded.
     *
     * @return true once the decision node exists
     */
    public boolean decided() {
        return decision.isPresent();
    }

    /**
     * Whether the transaction is decided and every participant, and the coordinator, acknowledged it.
     *
     * @return true when the nodes can go
     */
    public boolean fullyAcknowledged() {
        return decided() && coordinatorAcknowledged && acknowledged.containsAll(transaction.participants());
    }

    /** This status with {@code read}, the decision as read from its node, recorded. */
    TransactionStatus withDecision(Decision read) {
        return new TransactionStatus(transaction, created, votes, Optional.of(read), acknowledged, coordinatorAcknowledged);
    }

    /** Builds a status from a transaction and its node's children (name to data). */
    static TransactionStatus of(Transaction tx, long ctime, Map<String, byte[]> children) {
        Map<String, Vote> votes = new TreeMap<>();
        Set<String> acks = new TreeSet<>();
        Decision decision = null;
        for (Map.Entry<String, byte[]> child : children.entrySet()) {
            String name = child.getKey();
            if (name.startsWith(Layout.VOTE_PREFIX)) {
                votes.put(name.substring(Layout.VOTE_PREFIX.length()), Codec.vote(child.getValue()));
            } else if (name.startsWith(Layout.ACK_PREFIX)) {
                acks.add(name.substring(Layout.ACK_PREFIX.length()));
            } else if (name.equals(Layout.DECISION)) {
                decision = Codec.decision(child.getValue());
            }
        }
        return new TransactionStatus(tx, Instant.ofEpochMilli(ctime), votes, Optional.ofNullable(decision), acks,
            children.containsKey(Layout.COORDINATOR_ACK));
    }
}

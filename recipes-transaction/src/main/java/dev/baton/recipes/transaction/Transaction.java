package dev.baton.recipes.transaction;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One transaction as its participants are handed it.
 *
 * @param id the transaction's id: the name of its node, unique in its folder for ever (it carries
 *     a random uuid and the folder's sequence number); use it as the key of the participant's
 *     durable prepare record
 * @param participants the ids of every participant, sorted
 * @param payload what the coordinator asked for (a copy is returned)
 * @param deadline how long the participants have to vote, counted by each site from when it
 *     first saw the transaction (see {@link TransactionCoordinator})
 */
public record Transaction(String id, List<String> participants, byte[] payload, Duration deadline) {
    /**
     * Copies the participants and the payload, so the record cannot change under its holder.
     *
     * @param id the transaction's id
     * @param participants the participants' ids
     * @param payload the payload
     * @param deadline the deadline
     */
    public Transaction {
        Objects.requireNonNull(id, "id");
        participants = List.copyOf(participants);
        payload = payload.clone();
        Objects.requireNonNull(deadline, "deadline");
    }

    /**
     * The payload.
     *
     * @return a copy of the payload
     */
    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /**
     * The sequence number the folder gave the transaction (the digits after {@code tx-}), for ordering.
     *
     * @return the sequence number, or -1 if the id has none
     */
    public long sequence() {
        return Layout.sequence(id);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Transaction t && t.id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "Transaction{" + id + " " + participants + ", " + payload.length + " bytes, deadline " + deadline + "}";
    }
}

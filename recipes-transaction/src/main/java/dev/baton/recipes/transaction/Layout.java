package dev.baton.recipes.transaction;

import dev.baton.framework.ZPaths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a folder's nodes live, and the rules for participant ids.
 *
 * <pre>
 * folder/participants/&lt;id&gt;          one per registered participant (persistent)
 * folder/transactions/_c_&lt;uuid&gt;-tx-&lt;seq&gt;   one per transaction; data: participants, deadline, payload
 *     vote-&lt;id&gt;                      a participant's vote, written once
 *     decision                       the outcome, created once, atomically with the votes it relies on
 *     ack-&lt;id&gt;                       the participant was told the outcome
 *     coordinator-ack                the coordinator read the outcome
 * </pre>
 */
final class Layout {
    static final String TX_PREFIX = "tx-";
    static final String VOTE_PREFIX = "vote-";
    static final String ACK_PREFIX = "ack-";
    static final String DECISION = "decision";
    static final String COORDINATOR_ACK = "coordinator-ack";
    private static final Pattern PARTICIPANT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    final String folder;
    final String participants;
    final String transactions;

    Layout(String folder) {
        this.folder = ZPaths.validate("transaction folder", Objects.requireNonNull(folder, "folder"));
        this.participants = ZPaths.join(this.folder, "participants");
        this.transactions = ZPaths.join(this.folder, "transactions");
    }

    String registration(String participant) {
        return ZPaths.join(participants, participant);
    }

    String tx(String id) {
        return ZPaths.join(transactions, id);
    }

    static String vote(String txPath, String participant) {
        return ZPaths.join(txPath, VOTE_PREFIX + participant);
    }

    static String ack(String txPath, String participant) {
        return ZPaths.join(txPath, ACK_PREFIX + participant);
    }

    static String decision(String txPath) {
        return ZPaths.join(txPath, DECISION);
    }

    static String coordinatorAck(String txPath) {
        return ZPaths.join(txPath, COORDINATOR_ACK);
    }

    /** The sequence number in a transaction node's name, or -1 if it has none. */
    static long sequence(String id) {
        int at = id.lastIndexOf(TX_PREFIX);
        try {
            return at < 0 ? -1 : Long.parseLong(id.substring(at + TX_PREFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Checks a participant id: 1 to 100 letters, digits, {@code .}, {@code _} or {@code -}, not
     * starting with a punctuation mark (it becomes part of node names).
     */
    static String checkParticipantId(String id) {
        Objects.requireNonNull(id, "participant id must not be null; it must be 1 to 100 letters, digits, '.', '_' or '-'");
        if (!PARTICIPANT_ID.matcher(id).matches()) {
            throw new InvalidTransactionException("participant id must be 1 to 100 letters, digits, '.', '_' or '-', "
                + "starting with a letter or digit; was '" + id + "'");
        }
        return id;
    }

    /** The participants of a new transaction, checked and sorted. */
    static List<String> checkParticipants(Collection<String> ids) {
        Objects.requireNonNull(ids, "participants must not be null");
        if (ids.isEmpty()) {
            throw new InvalidTransactionException("a transaction needs at least one participant; the set given was empty");
        }
        List<String> sorted = new ArrayList<>();
        for (String id : ids) {
            if (id == null) {
                throw new NullPointerException("participants " + ids + " hold a null id; each must be a registered participant id");
            }
            sorted.add(checkParticipantId(id));
        }
        sorted.sort(null);
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).equals(sorted.get(i - 1))) {
                throw new InvalidTransactionException("participant '" + sorted.get(i) + "' is named twice in " + ids);
            }
        }
        return List.copyOf(sorted);
    }
}

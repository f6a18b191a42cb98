package dev.baton.recipes.transaction;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A transaction named participants that never registered in its folder (a
 * {@link TransactionParticipant} registers its id when it starts). Nothing was written.
 */
public class UnknownParticipantException extends TransactionException {
    private static final long serialVersionUID = 1L;

    /** The ids named but not registered. */
    private final SortedSet<String> unknown;

    /**
     * Participants not registered in the folder.
     *
     * @param folder the folder
     * @param unknown the ids named but not registered
     * @param registered the ids registered
     */
    public UnknownParticipantException(String folder, Set<String> unknown, Set<String> registered) {
        super("unknown participant(s) " + new TreeSet<>(unknown) + " in " + folder + ": expected ids registered there, "
            + (registered.isEmpty() ? "and none is" : "which are " + new TreeSet<>(registered)));
        this.unknown = new TreeSet<>(unknown);
    }

    /**
     * The ids that are not registered.
     *
     * @return a sorted copy
     */
    public SortedSet<String> unknown() {
        return new TreeSet<>(unknown);
    }
}

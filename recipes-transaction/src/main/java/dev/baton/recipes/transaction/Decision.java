package dev.baton.recipes.transaction;

import java.util.Objects;

/**
 * A transaction's decision as read from its decision node: the outcome, and in words why and by
 * whom it was recorded ({@code "stock voted abort (recorded by stock)"}).
 *
 * @param outcome commit or abort
 * @param reason why, and who recorded it
 */
public record Decision(Outcome outcome, String reason) {
    /**
     * Checks that neither part is null.
     *
     * @param outcome commit or abort
     * @param reason why, and who recorded it
     */
    public Decision {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * Whether the transaction committed.
     *
     * @return true for commit, false for abort
     */
    public boolean isCommit() {
        return outcome == Outcome.COMMIT;
    }
}

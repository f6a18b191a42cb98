package dev.baton.recipes.transaction;

import java.util.Objects;

/**
 * A transaction's decision as read from its decision node: the outcome, and in words why and by
 * whom it was recorded ({@code "stock voted abort (recorded by stock)"}).
 */
public record Decision(Outcome outcome, String reason) {
    public Decision {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reason, "reason");
    }

    public boolean isCommit() {
        return outcome == Outcome.COMMIT;
    }
}

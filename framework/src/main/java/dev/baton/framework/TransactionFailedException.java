package dev.baton.framework;

import java.util.List;
import org.apache.zookeeper.KeeperException;

/**
 * A transaction was rejected: none of its operations took effect. {@link #failedIndex()} says
 * which operation failed, {@link #code()} why, and {@link #outcomes()} gives the server's verdict
 * on each operation in order.
 */
public class TransactionFailedException extends BatonException {
    private static final long serialVersionUID = 1L;

    private final transient List<OpOutcome> outcomes;
    /** Index of the operation that made the transaction fail, or -1. */
    private final int failedIndex;

    /**
     * A rejected transaction: {@code outcomes} says what the server said of each operation.
     *
     * @param operation the operation, {@code "transaction"} or the recipe's name for it
     * @param outcomes the server's verdict on each operation, in the order they were added
     * @param failedIndex the index of the operation that made it fail, or -1 if the server did not say
     * @param code ZooKeeper's code for the failure
     */
    public TransactionFailedException(String operation, List<OpOutcome> outcomes, int failedIndex, KeeperException.Code code) {
        super(code, operation, outcomes.isEmpty() || failedIndex < 0 ? null : outcomes.get(failedIndex).path(),
            "transaction rejected at operation " + failedIndex + " (" + code.name() + "); nothing was applied", null);
        this.outcomes = List.copyOf(outcomes);
        this.failedIndex = failedIndex;
    }

    /** {@return index of the operation that made the transaction fail, or -1 if the server did not say} */
    public int failedIndex() {
        return failedIndex;
    }

    /** {@return what the server said of each operation, in the order they were added} */
    public List<OpOutcome> outcomes() {
        return outcomes;
    }

    /**
     * The server's verdict on one operation of a failed transaction.
     *
     * @param path the operation's path (without the namespace)
     * @param code {@code OK} for operations that would have succeeded, {@code RUNTIMEINCONSISTENCY}
     *     for those after the failure, the failure's code for the one that failed
     */
    public record OpOutcome(String path, KeeperException.Code code) {
    }
}

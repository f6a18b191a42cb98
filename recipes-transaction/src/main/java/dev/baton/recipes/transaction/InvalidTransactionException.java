package dev.baton.recipes.transaction;

/**
 * A transaction was refused before anything was written: no participants, a participant id that
 * cannot name a node, or a deadline that is not in the future.
 */
public class InvalidTransactionException extends TransactionException {
    private static final long serialVersionUID = 1L;

    /**
     * A refused transaction.
     *
     * @param message what was expected and what was received
     */
    public InvalidTransactionException(String message) {
        super(message);
    }
}

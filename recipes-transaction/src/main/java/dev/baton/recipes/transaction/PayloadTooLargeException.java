package dev.baton.recipes.transaction;

/** A transaction's payload is larger than its coordinator accepts. Nothing was written. */
public class PayloadTooLargeException extends TransactionException {
    private static final long serialVersionUID = 1L;

    private final int size;
    private final int limit;

    public PayloadTooLargeException(String folder, int size, int limit) {
        super("transaction payload for " + folder + " is " + size + " bytes; the coordinator accepts at most " + limit
            + " bytes (TransactionCoordinator.Builder.maxPayloadBytes)");
        this.size = size;
        this.limit = limit;
    }

    public int size() {
        return size;
    }

    public int limit() {
        return limit;
    }
}

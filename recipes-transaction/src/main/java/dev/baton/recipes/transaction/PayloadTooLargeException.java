package dev.baton.recipes.transaction;

/** A transaction's payload is larger than its coordinator accepts. Nothing was written. */
public class PayloadTooLargeException extends TransactionException {
    private static final long serialVersionUID = 1L;

    /** The refused payload's size in bytes. */
    private final int size;
    /** The coordinator's limit in bytes. */
    private final int limit;

    /**
     * A payload over the limit.
     *
     * @param folder the coordinator's folder
     * @param size the payload's size in bytes
     * @param limit the largest size accepted
     */
    public PayloadTooLargeException(String folder, int size, int limit) {
        super("transaction payload for " + folder + " is " + size + " bytes; the coordinator accepts at most " + limit
            + " bytes (TransactionCoordinator.Builder.maxPayloadBytes)");
        this.size = size;
        this.limit = limit;
    }

    /**
     * The refused payload's size.
     *
     * @return its size in bytes
     */
    public int size() {
        return size;
    }

    /**
     * The coordinator's limit.
     *
     * @return the largest payload accepted, in bytes
     */
    public int limit() {
        return limit;
    }
}

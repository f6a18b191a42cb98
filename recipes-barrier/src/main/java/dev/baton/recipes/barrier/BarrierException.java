package dev.baton.recipes.barrier;

import dev.baton.framework.BatonException;

/** A barrier or latch operation failed for a reason other than ZooKeeper's (a misused or corrupt latch, ...). */
public class BarrierException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * A barrier failure, explained in {@code message}.
     *
     * @param message which barrier and what went wrong
     */
    public BarrierException(String message) {
        super(message);
    }

    /**
     * A barrier failure, explained in {@code message}, caused by {@code cause}.
     *
     * @param message which barrier and what went wrong
     * @param cause the failure underneath, or null
     */
    public BarrierException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.baton.recipes.barrier;

import dev.baton.framework.BatonException;

/** A barrier or latch operation failed for a reason other than ZooKeeper's (a misused or corrupt latch, ...). */
public class BarrierException extends BatonException {
    private static final long serialVersionUID = 1L;

    public BarrierException(String message) {
        super(message);
    }

    public BarrierException(String message, Throwable cause) {
        super(message, cause);
    }
}

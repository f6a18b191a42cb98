package dev.baton.recipes.transaction;

import dev.baton.framework.BatonException;

/** A transaction could not be started or read, for a reason other than ZooKeeper's (bad input, a corrupt node, ...). */
public class TransactionException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * A failure described by {@code message}.
     *
     * @param message what went wrong
     */
    public TransactionException(String message) {
        super(message);
    }

    /**
     * A failure described by {@code message}, caused by {@code cause}.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public TransactionException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.baton.recipes.queue;

import dev.baton.framework.BatonException;

/** A put into a queue bounded by {@link QueueBuilder#maxItems(int)} found no room before its timeout. */
public class QueueFullException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * A bounded queue that stayed full for as long as the put could wait.
     *
     * @param message which queue, its bound and how long the put waited
     */
    public QueueFullException(String message) {
        super(message);
    }
}

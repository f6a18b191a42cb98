package dev.baton.recipes.queue;

import dev.baton.framework.BatonException;

/** The queue's {@link QueueSerializer} failed on an item being put; nothing was put. */
public class QueueSerializationException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * A serializer that failed, explained in {@code message}.
     *
     * @param message which item or node, and what failed
     * @param cause the serializer's exception
     */
    public QueueSerializationException(String message, Throwable cause) {
        super(message, cause);
    }
}

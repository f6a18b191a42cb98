package dev.baton.recipes.queue;

import dev.baton.framework.BatonException;

/** The queue's {@link QueueSerializer} failed on an item being put; nothing was put. */
public class QueueSerializationException extends BatonException {
    private static final long serialVersionUID = 1L;

    public QueueSerializationException(String message, Throwable cause) {
        super(message, cause);
    }
}

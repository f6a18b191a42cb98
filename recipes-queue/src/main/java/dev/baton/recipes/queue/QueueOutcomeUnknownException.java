package dev.baton.recipes.queue;

import dev.baton.framework.BatonException;

/**
 * A queue write whose reply was lost could not be resolved: the session that could have told
 * whether it took effect ended first. Rare: it needs a lost reply and a session expiry in the
 * same operation.
 *
 * <p>For a take, {@link #item()} holds the item's bytes: it may have been taken by this call
 * (and is then nowhere else), or by another consumer. Nothing is redelivered automatically, so
 * nothing is consumed twice without the caller's say; the caller decides whether to process the
 * item (at-least-once) or drop it (at-most-once). For a put, {@link #item()} is null and the
 * items may or may not be in the queue.
 */
public class QueueOutcomeUnknownException extends BatonException {
    private static final long serialVersionUID = 1L;

    private final transient byte[] item;
    private final String itemPath;

    public QueueOutcomeUnknownException(String message, String itemPath, byte[] item, Throwable cause) {
        super(message, cause);
        this.itemPath = itemPath;
        this.item = item == null ? null : item.clone();
    }

    /** The item's bytes for a take (as stored in its node), null for a put. */
    public byte[] item() {
        return item == null ? null : item.clone();
    }

    /** The item's node for a take, the path put into for a put. */
    public String itemPath() {
        return itemPath;
    }
}

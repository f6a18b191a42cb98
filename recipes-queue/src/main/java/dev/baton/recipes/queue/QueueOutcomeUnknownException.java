package dev.baton.recipes.queue;

import dev.baton.framework.BatonException;
import java.util.List;

/**
 * A queue write whose reply was lost could not be resolved: the session that could have told
 * whether it took effect ended first. Rare: it needs a lost reply and a session expiry in the
 * same operation.
 *
 * <p>For a take, {@link #item()} holds the item's bytes: it may have been taken by this call
 * (and is then nowhere else), or by another consumer. Nothing is redelivered automatically, so
 * nothing is consumed twice without the caller's say; the caller decides whether to process the
 * item (at-least-once) or drop it (at-most-once). A take of several items in one transaction
 * ({@code pollMulti}) carries all of them in {@link #items()}: the transaction removed all of
 * them or none. For a put, {@link #item()} is null, {@link #items()} empty, and the items may or
 * may not be in the queue.
 */
public class QueueOutcomeUnknownException extends BatonException {
    private static final long serialVersionUID = 1L;

    private final transient List<byte[]> items;
    /** The item's node for a take, the path put into for a put. */
    private final String itemPath;

    /**
     * For a put ({@code item} null) or a take of one item.
     *
     * @param message what was done, and why its outcome is unknown
     * @param itemPath the item's node for a take, the path put into for a put
     * @param item the item's bytes for a take, null for a put
     * @param cause the failure underneath, or null
     */
    public QueueOutcomeUnknownException(String message, String itemPath, byte[] item, Throwable cause) {
        this(message, itemPath, item == null ? List.of() : List.of(item), cause);
    }

    /**
     * For a take of {@code items} in one transaction, {@code itemPath} the first one's node.
     *
     * @param message what was done, and why its outcome is unknown
     * @param itemPath the first item's node
     * @param items every item's bytes, in queue order
     * @param cause the failure underneath, or null
     */
    public QueueOutcomeUnknownException(String message, String itemPath, List<byte[]> items, Throwable cause) {
        super(message, cause);
        this.itemPath = itemPath;
        this.items = items.stream().map(byte[]::clone).toList();
    }

    /** {@return the (first) item's bytes for a take (as stored in its node), null for a put} */
    public byte[] item() {
        return items.isEmpty() ? null : items.get(0).clone();
    }

    /** {@return every item's bytes for a take, in queue order (one for a single take); empty for a put} */
    public List<byte[]> items() {
        return items.stream().map(byte[]::clone).toList();
    }

    /** {@return the item's node for a take, the path put into for a put} */
    public String itemPath() {
        return itemPath;
    }
}

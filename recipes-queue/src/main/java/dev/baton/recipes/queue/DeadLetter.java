package dev.baton.recipes.queue;

/**
 * An item that could not be consumed, kept under the queue's dead-letter path with the reason.
 *
 * @param path the dead letter's own node
 * @param itemPath the node the item was in
 * @param error why it was given up: the consumer's last exception (with the number of attempts),
 *     a serializer failure, unreadable data, or a take whose outcome was unknown
 * @param item the item's serialized bytes (what {@link QueueSerializer#serialize} produced), or
 *     the node's whole data if it could not be read as an item
 */
public record DeadLetter(String path, String itemPath, String error, byte[] item) {
    /**
     * {@return the item, deserialized}
     *
     * @param <T> the queue's item type
     * @param serializer the queue's serializer
     */
    public <T> T item(QueueSerializer<T> serializer) {
        return serializer.deserialize(item);
    }
}

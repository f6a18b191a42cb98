package dev.baton.recipes.queue;

/**
 * Turns items into bytes and back. The bytes are stored in Curator's item envelope, so a Curator
 * queue with an equivalent serializer reads them. An exception thrown by {@link #serialize} fails
 * the put with {@link QueueSerializationException}; one thrown by {@link #deserialize} sends the
 * item to the dead letters.
 */
public interface QueueSerializer<T> {
    /**
     * Turns {@code item} into the bytes stored in ZooKeeper.
     *
     * @param item the item being put
     * @return its bytes
     */
    byte[] serialize(T item);

    /**
     * Turns stored bytes back into an item.
     *
     * @param bytes what {@link #serialize} made
     * @return the item
     */
    T deserialize(byte[] bytes);
}

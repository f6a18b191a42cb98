package dev.baton.recipes.queue;

/**
 * Turns items into bytes and back. The bytes are stored in Curator's item envelope, so a Curator
 * queue with an equivalent serializer reads them. An exception thrown by {@link #serialize} fails
 * the put with {@link QueueSerializationException}; one thrown by {@link #deserialize} sends the
 * item to the dead letters.
 */
public interface QueueSerializer<T> {
    byte[] serialize(T item);

    T deserialize(byte[] bytes);
}

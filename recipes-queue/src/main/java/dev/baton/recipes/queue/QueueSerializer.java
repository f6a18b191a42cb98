package dev.baton.recipes.queue;

import java.nio.charset.StandardCharsets;

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

    /**
     * {@return strings as UTF-8 bytes: the serializer of text items, the same bytes as a Curator queue
     * whose serializer writes {@code String.getBytes(UTF_8)}}
     */
    static QueueSerializer<String> utf8() {
        return Utf8Serializer.INSTANCE;
    }
}

/** {@link QueueSerializer#utf8()}: stateless, so one instance serves every queue. */
enum Utf8Serializer implements QueueSerializer<String> {
    INSTANCE;

    @Override
    public byte[] serialize(String item) {
        return item.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String deserialize(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}

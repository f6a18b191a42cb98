package dev.baton.recipes.queue;

import java.nio.charset.StandardCharsets;

/** A UTF-8 string serializer for tests. */
final class Strings implements QueueSerializer<String> {
    static final Strings UTF8 = new Strings();

    @Override
    public byte[] serialize(String item) {
        return item.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String deserialize(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}

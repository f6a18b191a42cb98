package dev.baton.recipes.queue;

/** The tests' string serializer: the queue's own UTF-8 one. */
final class Strings {
    static final QueueSerializer<String> UTF8 = QueueSerializer.utf8();

    private Strings() {
    }
}

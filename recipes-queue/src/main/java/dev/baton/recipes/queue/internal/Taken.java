package dev.baton.recipes.queue.internal;

/** An item a take removed: its node and its data. */
public record Taken(ItemRef ref, byte[] data) {
}

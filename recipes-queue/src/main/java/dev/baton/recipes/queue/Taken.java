package dev.baton.recipes.queue;

/** An item a take removed: its node and its data. */
record Taken(ItemRef ref, byte[] data) {
}

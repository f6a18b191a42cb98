package dev.baton.recipes.queue;

import java.util.Comparator;

/**
 * Where an item stands in its queue: by {@code primary} (priority or due time; 0 for FIFO and id
 * queues), then by shard (-1 for an item directly under the queue path, Curator's layout), then
 * by the item's own sequence number.
 */
record ItemKey(long primary, long shard, long sequence) implements Comparable<ItemKey> {
    private static final Comparator<ItemKey> ORDER = Comparator.comparingLong(ItemKey::primary)
        .thenComparingLong(ItemKey::shard)
        .thenComparingLong(ItemKey::sequence);

    @Override
    public int compareTo(ItemKey other) {
        return ORDER.compare(this, other);
    }
}

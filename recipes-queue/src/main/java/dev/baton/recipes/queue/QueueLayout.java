package dev.baton.recipes.queue;

/**
 * Where a queue's producers put items. Consumers read both layouts, always.
 */
public enum QueueLayout {
    /**
     * Items in shard nodes, {@code <path>/shard-<seq>/<item>}, a few thousand per shard, so the
     * queue works with any number of waiting items. Curator's consumers do not see these items.
     * The default.
     */
    SHARDED,
    /**
     * Items directly under the queue path, as Curator and ZooKeeper's own recipe put them: for
     * fleets where Curator consumers still run. Such a queue breaks, for Curator and Baton alike,
     * once so many items wait that listing them exceeds ZooKeeper's 1 MB reply limit (roughly
     * 50,000 to 60,000 items).
     */
    FLAT;

    /**
     * Under {@link #SHARDED}, a producer moves on to a new shard once an item's sequence number in
     * its shard reaches this, so a shard holds at most about this many items plus one batch. Tools
     * that write the sharded layout themselves (the benchmarks' fill) roll at the same point.
     */
    public static final int SHARD_ROLL_SEQUENCE = 5_000;
}

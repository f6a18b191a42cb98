package dev.baton.server;

/**
 * How a partition between servers behaves on the wire ({@link EmbeddedEnsemble#partition}).
 */
public enum PartitionStyle {
    /**
     * Connections across the partition are closed and new ones refused: both sides learn at once,
     * as from a crashed switch or a killed process. The faster fault to test with.
     */
    CLOSE,
    /**
     * Traffic across the partition vanishes, as behind a firewall rule that drops packets (what
     * Jepsen does to ZooKeeper): connections stay open and carry nothing, new ones never reach the
     * other side, and each server learns only from its own timeouts ({@code syncLimit} ticks for a
     * follower and its leader). Meanwhile a follower cut off from its leader keeps answering the
     * clients connected to it.
     */
    SILENT
}

package dev.baton.recipes.group;

import dev.baton.framework.NodeOwner;
import org.apache.zookeeper.data.Stat;

/**
 * A registered name as looked up.
 *
 * @param name the name, {@code /business/metrics0000000001}
 * @param nodePath the node that holds it
 * @param data the data registered with it (or set on its node since)
 * @param stat its node's stat
 */
public record NameEntry(String name, String nodePath, byte[] data, Stat stat) {
    /**
     * How long the name lasts, from its node.
     *
     * @return EPHEMERAL if the name ends with its registrant's session, else PERSISTENT (also for a
     *     container or TTL node, which outlive sessions)
     */
    public NameLifetime lifetime() {
        return NodeOwner.isEphemeral(stat) ? NameLifetime.EPHEMERAL : NameLifetime.PERSISTENT;
    }
}

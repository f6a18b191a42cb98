package dev.baton.framework;

import java.util.Objects;
import org.apache.zookeeper.data.Stat;

/**
 * Whether a node is ephemeral, and which session owns it, as its {@link Stat} tells: the one
 * reading of the stat's {@code ephemeralOwner} field, for recipes and tools alike.
 *
 * <p>What the servers send: the owning session's id for an ephemeral node, and 0 for every other
 * node. On the servers the field also marks container and TTL nodes (a container holds
 * {@link Long#MIN_VALUE}, a TTL node its TTL under a top byte of {@code 0xFF}), but every reply
 * to a client — a create's, a read's, an exists' — carries 0 for them: a client cannot tell a
 * container or a TTL node from a persistent one by its stat, and must not try to decode the
 * field. A non-zero owner is therefore exactly an ephemeral node's session, whatever that
 * session's id looks like (a session made by a server with a high id is a negative number, or
 * starts with the byte {@code 0xFF}).
 *
 * <pre>{@code
 * Stat stat = client.checkExists().forPath("/workers/w-17");
 * if (stat != null && NodeOwner.isOwnedBy(stat, client.sessionId())) {
 *     ... our ephemeral node: it goes with our session ...
 * }
 * }</pre>
 */
public final class NodeOwner {
    private NodeOwner() {
    }

    /**
     * {@return whether the node {@code stat} describes is ephemeral: it goes with the session that created it}
     * Container and TTL nodes are not: they outlive sessions.
     *
     * @param stat a node's stat, as the servers sent it
     */
    public static boolean isEphemeral(Stat stat) {
        return Objects.requireNonNull(stat, "stat").getEphemeralOwner() != 0;
    }

    /**
     * {@return whether the node {@code stat} describes is an ephemeral node of session {@code sessionId}}
     * False for every node when {@code sessionId} is 0 (a client without a session owns nothing).
     *
     * @param stat a node's stat, as the servers sent it
     * @param sessionId a session's id, such as {@link BatonClient#sessionId()}
     */
    public static boolean isOwnedBy(Stat stat, long sessionId) {
        return sessionId != 0 && Objects.requireNonNull(stat, "stat").getEphemeralOwner() == sessionId;
    }
}

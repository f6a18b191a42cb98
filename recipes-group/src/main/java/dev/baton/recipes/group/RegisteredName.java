package dev.baton.recipes.group;

/**
 * A name the {@link NamingService} handed out.
 *
 * @param name the name: the namespace and the prefix with its sequence number, {@code /business/metrics0000000001}
 * @param nodePath the node that holds it, {@code /business/_c_<uuid>-metrics0000000001}
 * @param sequence the sequence number, unique in the namespace
 * @param lifetime how long it lasts
 * @param czxid the zxid of the name's creation: unique and increasing across the whole ensemble
 */
public record RegisteredName(String name, String nodePath, long sequence, NameLifetime lifetime, long czxid) {
}

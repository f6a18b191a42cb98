package dev.baton.framework.cache;

/**
 * A change a cache saw.
 *
 * @param type what happened
 * @param node the node after the change (before it, for REMOVED); null for INITIALIZED
 * @param previous the node before an UPDATED change; null otherwise
 */
public record CacheEvent(Type type, ChildData node, ChildData previous) {
    /** Kinds of change. */
    public enum Type {
        /** A node appeared in the cache. */
        ADDED,
        /** A cached node's data or stat changed. */
        UPDATED,
        /** A node left the cache. */
        REMOVED,
        /** The first full load finished: the cache reflects the tree. Sent once. */
        INITIALIZED
    }
}

package dev.baton.framework;

import org.apache.zookeeper.data.Stat;

/**
 * What one operation of a committed transaction did.
 *
 * @param type the kind of operation
 * @param path its path without the namespace; for a create, the created path (with sequence)
 * @param stat the node's stat after a create or setData, null for delete and check
 */
public record TransactionResult(Type type, String path, Stat stat) {
    /** The kinds of operation a transaction can hold. */
    public enum Type {
        /** A node was created. */
        CREATE,
        /** A node's data was set. */
        SET_DATA,
        /** A node was deleted. */
        DELETE,
        /** A node's version was checked. */
        CHECK
    }
}

package dev.baton.recipes.group;

/**
 * Told each time a {@link PersistentNode} has put its node in place: created it (the first time
 * or again after it went), or found it there and given it its data. Runs on the client's event
 * executor; a listener that throws is logged.
 */
@FunctionalInterface
public interface PersistentNodeListener {
    /** @param path the node's actual path (with protection prefix and sequence number, if any) */
    void nodeCreated(String path);
}

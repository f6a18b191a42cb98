package dev.baton.recipes.config;

/**
 * Told when keys it watches change. Calls come in the order snapshots were published, one at a
 * time, on the client's event executor: a listener never sees a value older than one it has
 * already seen. Intermediate values may be skipped (several changes can arrive as one update);
 * after any quiet period the last update a listener got holds the latest committed values. A
 * listener that throws is logged and keeps receiving updates. Do not block in it.
 */
@FunctionalInterface
public interface ConfigListener {
    /**
     * Called with the watched keys that changed in one published snapshot.
     *
     * @param update the changes and the snapshot they came in
     */
    void changed(ConfigUpdate update);
}

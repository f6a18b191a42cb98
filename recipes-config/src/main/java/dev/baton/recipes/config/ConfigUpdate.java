package dev.baton.recipes.config;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link ConfigListener} is told: the keys of its scope that changed, and the snapshot
 * they changed in (read related keys from it: it holds every release whole).
 *
 * @param snapshot the snapshot that brought the changes
 * @param changes the watched keys that changed, in name order
 */
public record ConfigUpdate(ConfigSnapshot snapshot, List<ConfigChange> changes) {
    /**
     * Checks the snapshot and keeps an unmodifiable copy of the changes.
     *
     * @param snapshot the snapshot that brought the changes
     * @param changes the watched keys that changed
     */
    public ConfigUpdate {
        Objects.requireNonNull(snapshot, "snapshot");
        changes = List.copyOf(changes);
    }

    /**
     * The release the snapshot holds.
     *
     * @return its number, 0 if the store has none
     */
    public long release() {
        return snapshot.release();
    }
}

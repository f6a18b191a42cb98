package dev.baton.recipes.config;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A numbered release of a {@link ConfigStore}, as its history keeps it: what each changed key was
 * before and became after.
 *
 * @param number the release's number: 1 for a store's first, then one more for each
 * @param time when the writer committed it (the writer's clock)
 * @param message what the writer said it was for ("" if nothing)
 * @param changes each key the release changed, in the order they were given
 */
public record Release(long number, Instant time, String message, List<Change> changes) {
    /**
     * Checks the components and keeps an unmodifiable copy of the changes.
     *
     * @param number the release's number
     * @param time when it was committed
     * @param message what it was for
     * @param changes each key it changed
     */
    public Release {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(message, "message");
        changes = List.copyOf(changes);
    }

    /**
     * The keys the release changed.
     *
     * @return the keys, in the order of {@link #changes()}
     */
    public List<String> keys() {
        return changes.stream().map(Change::key).toList();
    }

    /**
     * One key's change.
     *
     * @param key the key
     * @param before its value before the release (empty: it did not exist)
     * @param after its value after the release (empty: the release removed it)
     */
    public record Change(String key, Optional<byte[]> before, Optional<byte[]> after) {
        /**
         * Checks that no component is null.
         *
         * @param key the key
         * @param before its value before
         * @param after its value after
         */
        public Change {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(before, "before");
            Objects.requireNonNull(after, "after");
        }
    }
}

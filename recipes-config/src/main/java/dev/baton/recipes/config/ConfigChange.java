package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Objects;
import java.util.Optional;

/**
 * One key's change, as a {@link ConfigListener} sees it.
 *
 * @param key the key
 * @param previous the value the listener saw last (empty: none, or the key did not exist)
 * @param value the value now (empty: the key was removed)
 */
public record ConfigChange(String key, Optional<byte[]> previous, Optional<byte[]> value) {
    /**
     * Checks that no component is null.
     *
     * @param key the key
     * @param previous the value the listener saw last
     * @param value the value now
     */
    public ConfigChange {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(value, "value");
    }

    /**
     * Whether the key was removed.
     *
     * @return true if the key no longer exists
     */
    public boolean removed() {
        return value.isEmpty();
    }

    /**
     * The new value as UTF-8 text.
     *
     * @return the text, or empty if the key was removed
     */
    public Optional<String> valueAsString() {
        return value.map(v -> new String(v, UTF_8));
    }
}

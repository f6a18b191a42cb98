package dev.baton.recipes.config;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * Typed reads of configuration values. A missing key is {@link Optional#empty()}, never null; a
 * value that does not read as the type asked for throws {@link ConfigValueException} saying what
 * was expected and what was there.
 *
 * <p>Text is UTF-8. Numbers are decimal ({@code 8080}); booleans are {@code true/false},
 * {@code yes/no} or {@code on/off}; durations are {@code 30s}, {@code 500ms}, {@code 2m},
 * {@code 1h}, {@code 1d} or ISO-8601 ({@code PT30S}); JSON binds to the given class with unknown
 * properties ignored. Surrounding whitespace is ignored for all but text and JSON.
 */
public interface ConfigValues {
    /** The value's bytes (a copy), or empty if there is no such key. */
    Optional<byte[]> get(String key);

    /** Every key, in name order. */
    Set<String> keys();

    /** The value with its node's version, for {@link ConfigStore#compareAndSet}. */
    Optional<VersionedValue<byte[]>> getVersioned(String key);

    default Optional<String> getString(String key) {
        return get(key).map(Values::text);
    }

    default Optional<Integer> getInt(String key) {
        return get(key).map(v -> Values.asInt(key, v));
    }

    default Optional<Long> getLong(String key) {
        return get(key).map(v -> Values.asLong(key, v));
    }

    default Optional<Boolean> getBoolean(String key) {
        return get(key).map(v -> Values.asBoolean(key, v));
    }

    default Optional<Duration> getDuration(String key) {
        return get(key).map(v -> Values.asDuration(key, v));
    }

    /** The value as JSON bound to {@code type} (unknown properties are ignored). */
    <T> Optional<T> getJson(String key, Class<T> type);
}

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
    /**
     * The value's bytes.
     *
     * @param key a key (a relative path such as {@code db/url})
     * @return a copy of the value, or empty if there is no such key
     * @throws InvalidKeyException if {@code key} is not a valid key
     */
    Optional<byte[]> get(String key);

    /**
     * Every key.
     *
     * @return the keys, in name order
     */
    Set<String> keys();

    /**
     * The value with its node's version, for {@link ConfigStore#compareAndSet}.
     *
     * @param key a key
     * @return the value and version, or empty if there is no such key
     * @throws InvalidKeyException if {@code key} is not a valid key
     */
    Optional<VersionedValue<byte[]>> getVersioned(String key);

    /**
     * The value as UTF-8 text.
     *
     * @param key a key
     * @return the text, or empty if there is no such key
     * @throws InvalidKeyException if {@code key} is not a valid key
     */
    default Optional<String> getString(String key) {
        return get(key).map(Values::text);
    }

    /**
     * The value as a decimal {@code int}.
     *
     * @param key a key
     * @return the number, or empty if there is no such key
     * @throws ConfigValueException if the value is not an int
     */
    default Optional<Integer> getInt(String key) {
        return get(key).map(v -> Values.asInt(key, v));
    }

    /**
     * The value as a decimal {@code long}.
     *
     * @param key a key
     * @return the number, or empty if there is no such key
     * @throws ConfigValueException if the value is not a long
     */
    default Optional<Long> getLong(String key) {
        return get(key).map(v -> Values.asLong(key, v));
    }

    /**
     * The value as a boolean ({@code true/false}, {@code yes/no}, {@code on/off}).
     *
     * @param key a key
     * @return the boolean, or empty if there is no such key
     * @throws ConfigValueException if the value is none of those words
     */
    default Optional<Boolean> getBoolean(String key) {
        return get(key).map(v -> Values.asBoolean(key, v));
    }

    /**
     * The value as a duration ({@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h}, {@code 1d} or
     * ISO-8601 such as {@code PT30S}).
     *
     * @param key a key
     * @return the duration, or empty if there is no such key
     * @throws ConfigValueException if the value is not a duration
     */
    default Optional<Duration> getDuration(String key) {
        return get(key).map(v -> Values.asDuration(key, v));
    }

    /**
     * The value as JSON bound to {@code type} (unknown properties are ignored).
     *
     * @param <T> the type bound to
     * @param key a key
     * @param type the class to bind the JSON to
     * @return the bound object, or empty if there is no such key
     * @throws ConfigValueException if the value is not JSON that binds to {@code type}
     */
    <T> Optional<T> getJson(String key, Class<T> type);
}

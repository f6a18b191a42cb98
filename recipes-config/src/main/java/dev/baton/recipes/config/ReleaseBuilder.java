package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Several changes published as one numbered release: written in one ZooKeeper transaction, so
 * every reader sees all of them or none. Keys are checked as they are added; nothing is sent
 * before {@link #commit()}.
 *
 * <pre>{@code
 * Release r = store.release()
 *     .set("db/url", "jdbc:postgresql://db2/orders")
 *     .set("db/pool", "20")
 *     .remove("db/legacy-url")
 *     .message("move orders to db2")
 *     .commit();
 * }</pre>
 */
public final class ReleaseBuilder {
    private final ConfigStore store;
    private final Map<String, Optional<byte[]>> changes = new LinkedHashMap<>();
    private String message = "";
    private OptionalLong expected = OptionalLong.empty();

    ReleaseBuilder(ConfigStore store) {
        this.store = store;
    }

    /**
     * Sets {@code key} to {@code value} (the last change of a key in one release wins).
     *
     * @param key a key
     * @param value its new value
     * @return this builder
     * @throws InvalidKeyException if {@code key} is not a valid key
     */
    public ReleaseBuilder set(String key, byte[] value) {
        Keys.check(key);
        changes.put(key, Optional.of(Objects.requireNonNull(value, "value").clone()));
        return this;
    }

    /**
     * Sets {@code key} to {@code value} as UTF-8.
     *
     * @param key a key
     * @param value its new value
     * @return this builder
     * @throws InvalidKeyException if {@code key} is not a valid key
     */
    public ReleaseBuilder set(String key, String value) {
        return set(key, Objects.requireNonNull(value, "value").getBytes(UTF_8));
    }

    /**
     * Removes {@code key} (nothing happens to a key that does not exist).
     *
     * @param key a key
     * @return this builder
     * @throws InvalidKeyException if {@code key} is not a valid key
     */
    public ReleaseBuilder remove(String key) {
        Keys.check(key);
        changes.put(key, Optional.empty());
        return this;
    }

    /**
     * Sets every key of {@code values} (as UTF-8).
     *
     * @param values key to new value
     * @return this builder
     * @throws InvalidKeyException if one of the keys is not a valid key
     */
    public ReleaseBuilder setAll(Map<String, String> values) {
        values.forEach(this::set);
        return this;
    }

    /**
     * What the release is for, kept in the history.
     *
     * @param text the message
     * @return this builder
     */
    public ReleaseBuilder message(String text) {
        this.message = Objects.requireNonNull(text, "message");
        return this;
    }

    /**
     * Writes the release only if the store is still at release {@code number} (otherwise
     * {@link ReleaseConflictException}): for a change prepared from what a person saw.
     *
     * @param number the release the store must be at
     * @return this builder
     */
    public ReleaseBuilder onlyIfRelease(long number) {
        if (number < 0) {
            throw new IllegalArgumentException("release numbers are 0 or more, was " + number);
        }
        this.expected = OptionalLong.of(number);
        return this;
    }

    /**
     * The changes added so far.
     *
     * @return how many keys the release sets or removes
     */
    public int size() {
        return changes.size();
    }

    /**
     * Validates and writes the release, retrying over concurrent changes of its keys.
     *
     * @return the release as written (its number, and each key's value before and after; keys
     *     whose value was already the one asked for are left out). If nothing would change, nothing
     *     is written and no number is taken: the result has no changes, and its number is the
     *     release the store is at (checked on the servers when the store was read); the validator
     *     is not asked
     * @throws ReleaseRejectedException if the store's validator refused it
     * @throws ReleaseTooLargeException if it does not fit in one transaction
     * @throws ReleaseConflictException if {@link #onlyIfRelease} no longer holds, or other
     *     writers kept changing its keys
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public Release commit() throws InterruptedException {
        return store.commit(changes, message, expected);
    }
}

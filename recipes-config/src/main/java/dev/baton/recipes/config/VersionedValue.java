package dev.baton.recipes.config;

/**
 * A value together with the version of the node it was read from: pass it back to a
 * compare-and-set ({@link SharedValue#trySetValue}, {@link SharedCount#trySetCount},
 * {@link ConfigStore#compareAndSet}) so that it only succeeds if nobody changed the node since.
 *
 * <p>{@link #getVersion()} and {@link #getValue()} are Curator's names for the two components, so
 * a read-modify-write loop written against Curator's {@code VersionedValue} compiles unchanged.
 *
 * @param version the node's data version ({@code Stat.getVersion()}) when the value was read,
 *     or {@link #ABSENT} for a value read from no node
 * @param value the value (for {@code byte[]} values, equality of two records is identity of the arrays)
 */
public record VersionedValue<T>(int version, T value) {
    /** The version of a node that does not exist: a compare-and-set with it creates the node. */
    public static final int ABSENT = -1;

    /**
     * Curator's name for {@link #version()}.
     *
     * @return the node's data version when the value was read
     */
    public int getVersion() {
        return version;
    }

    /**
     * Curator's name for {@link #value()}.
     *
     * @return the value
     */
    public T getValue() {
        return value;
    }
}

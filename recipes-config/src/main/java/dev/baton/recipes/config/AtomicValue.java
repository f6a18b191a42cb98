package dev.baton.recipes.config;

/**
 * What an operation of {@link DistributedAtomicLong} did. Always look at {@link #succeeded()}:
 * an optimistic update gives up when its retry policy does.
 *
 * @param succeeded whether the value was changed as asked (always true for {@code get()})
 * @param preValue the value before the operation (0 for a counter that was never set)
 * @param postValue the value after it; for an operation that did not succeed, the value it last
 *     read (unchanged by this call)
 */
public record AtomicValue<T>(boolean succeeded, T preValue, T postValue) {
}

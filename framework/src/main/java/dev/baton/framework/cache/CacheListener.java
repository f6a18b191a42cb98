package dev.baton.framework.cache;

/** Told of every change a cache sees, in order, on the cache's executor. A listener that throws is logged. */
@FunctionalInterface
public interface CacheListener {
    /**
     * Called with each change, in order, on the cache's executor.
     *
     * @param event what changed
     */
    void event(CacheEvent event);
}

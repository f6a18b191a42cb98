package dev.baton.recipes.discovery;

/**
 * Told when a {@link ServiceCache}'s instances change (after its first load), on the cache's
 * executor, one call at a time. Read the new content with {@link ServiceCache#getInstances()}. A
 * listener that throws is logged and keeps being called; one that blocks delays every later event
 * of the client (it runs on the client's event executor unless the cache was given its own).
 */
@FunctionalInterface
public interface ServiceCacheListener {
    /** The cache's instances changed. */
    void cacheChanged();
}

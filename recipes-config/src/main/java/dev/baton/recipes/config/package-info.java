/**
 * Configuration on ZooKeeper: a live, typed, versioned store whose multi-key releases are seen
 * whole, and Curator's shared values and atomic counters with Curator 5.9's bytes and nodes.
 *
 * <p>Start with {@link dev.baton.recipes.config.ConfigStore}: one znode per key under a base
 * path, read from a local snapshot (no round trip), watched per key or prefix, changed by
 * compare-and-set or by numbered {@linkplain dev.baton.recipes.config.ReleaseBuilder releases}
 * that can be validated before they are written and rolled back. {@link
 * dev.baton.recipes.config.SharedValue}, {@link dev.baton.recipes.config.SharedCount} and {@link
 * dev.baton.recipes.config.DistributedAtomicLong} share a value or a counter with Curator
 * services. Guide: {@code docs/config.md}.
 */
package dev.baton.recipes.config;

/**
 * Service discovery on ZooKeeper: registry, cache and client-side load balancing, Curator-compatible.
 */
package dev.baton.recipes.discovery;

/**
 * Service discovery on ZooKeeper: registry, cache and client-side load balancing, Curator-compatible.
 *
 * <p>Start with {@link dev.baton.recipes.discovery.ServiceDiscoveryBuilder}: a
 * {@link dev.baton.recipes.discovery.ServiceDiscovery} registers this process's
 * {@link dev.baton.recipes.discovery.ServiceInstance}s (ephemeral nodes
 * {@code <basePath>/<service>/<id>}, re-registered after a session expiry) and finds others';
 * a {@link dev.baton.recipes.discovery.ServiceCache} keeps one service's instances in memory; a
 * {@link dev.baton.recipes.discovery.ServiceProvider} picks one per call with a
 * {@link dev.baton.recipes.discovery.ProviderStrategy}, skipping disabled, unhealthy and failing
 * instances. The JSON is Curator 5.9's, and payloads are always bound to the declared class.
 * Guide: {@code docs/discovery.md}.
 */
package dev.baton.recipes.discovery;

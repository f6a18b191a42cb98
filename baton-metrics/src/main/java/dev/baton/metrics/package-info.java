/**
 * Micrometer meters for a Baton client and the recipes built on it: {@link dev.baton.metrics.BatonMetrics}.
 * See docs/observability.md for every meter, its tags and what to alert on.
 */
package dev.baton.metrics;

/**
 * The Baton client: connection states, retried operations, idempotent creates, caches and the contention engine every recipe is built on.
 */
package dev.baton.framework;

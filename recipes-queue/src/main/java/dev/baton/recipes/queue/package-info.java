/**
 * Queues on ZooKeeper that lose nothing and scale past the packet limit.
 */
package dev.baton.recipes.queue;

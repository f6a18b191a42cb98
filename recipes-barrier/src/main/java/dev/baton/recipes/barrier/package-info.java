/**
 * Barriers on ZooKeeper: a simple barrier, a double barrier and a distributed count-down latch.
 */
package dev.baton.recipes.barrier;

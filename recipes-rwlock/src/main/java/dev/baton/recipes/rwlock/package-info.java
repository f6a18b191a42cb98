/**
 * A fair, herd-free inter-process read/write lock on ZooKeeper.
 */
package dev.baton.recipes.rwlock;

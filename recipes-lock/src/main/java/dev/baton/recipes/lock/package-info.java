/**
 * Inter-process locks and semaphores on ZooKeeper, with fencing tokens and lease handles.
 */
package dev.baton.recipes.lock;

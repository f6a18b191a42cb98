/**
 * A fair, herd-free inter-process read/write lock on ZooKeeper.
 *
 * <p>{@link dev.baton.recipes.rwlock.InterProcessReadWriteLock} gives a read side and a write side,
 * each held by a thread (re-entrant), by a handle ({@link dev.baton.recipes.rwlock.ReadLease},
 * {@link dev.baton.recipes.rwlock.WriteLease}) or asynchronously. Readers and writers share one
 * line in Curator's node layout, decided by the pure rules of
 * {@link dev.baton.recipes.rwlock.ReadWriteRules} on the framework's contention engine. A write
 * holder may downgrade to a read hold at once; a read holder asking for the write lock gets a
 * {@link dev.baton.recipes.rwlock.LockUpgradeException}. See {@code docs/rwlock.md}.
 */
package dev.baton.recipes.rwlock;

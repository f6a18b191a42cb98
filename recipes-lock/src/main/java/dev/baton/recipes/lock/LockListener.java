package dev.baton.recipes.lock;

/**
 * Told when a {@link WriteLock} is acquired and when it ends, as in ZooKeeper's recipe. Both run
 * on the client's event executor (never ZooKeeper's thread, never while the lock's own state is
 * locked); keep them short. One that throws is logged and the lock carries on.
 */
public interface LockListener {
    /** The lock is now held (also when {@link WriteLock#lock()} returned true). */
    void lockAcquired();

    /** The hold ended: released by {@link WriteLock#unlock()}, or lost (session ended, node deleted, connection suspended under the standard error policy). */
    void lockReleased();
}

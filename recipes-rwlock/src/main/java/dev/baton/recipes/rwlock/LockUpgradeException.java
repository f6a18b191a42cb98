package dev.baton.recipes.rwlock;

/**
 * Thrown when a thread that holds the read lock asks, and would wait, for the write lock of the
 * same {@link InterProcessReadWriteLock}. The write lock waits for every reader ahead of it —
 * this thread's read hold among them — so the request could never be granted (Curator's lock
 * waits forever there). Release the read lock first, or take the write lock first and take the
 * read lock under it (a downgrade).
 */
public final class LockUpgradeException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * A refused upgrade, explained in {@code message}.
     *
     * @param message which lock, which thread, and what to do instead
     */
    public LockUpgradeException(String message) {
        super(message);
    }
}

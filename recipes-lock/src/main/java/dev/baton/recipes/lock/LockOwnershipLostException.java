package dev.baton.recipes.lock;

import dev.baton.framework.contention.OwnershipLostException;

/**
 * Thrown by a release when the hold being released may have been lost before it: the session
 * that owned the lock's node expired, the node was deleted by someone else, or (under
 * {@link dev.baton.framework.ErrorPolicy#STANDARD}) the connection was suspended while it was
 * held. The release has still done its work — local state is cleaned up and the node is deleted
 * if it still exists — but whatever the holder did after the loss may have overlapped with
 * another holder. A fencing token checked downstream is what makes that safe.
 *
 * <p>It is an {@link IllegalMonitorStateException}, the exception Java's own locks throw when a
 * thread releases what it does not hold, through the framework's {@link OwnershipLostException},
 * which the other recipes' grants throw too.
 */
public final class LockOwnershipLostException extends OwnershipLostException {
    private static final long serialVersionUID = 1L;

    /**
     * A lost hold, explained in {@code message}.
     *
     * @param message which lock, and why its hold was lost
     */
    public LockOwnershipLostException(String message) {
        super(message);
    }
}

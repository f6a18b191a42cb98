package dev.baton.framework.contention;

/**
 * Thrown by a release when the grant being released may have been lost before it: the session
 * that owned its node expired, the node was deleted by someone else, or (under
 * {@link dev.baton.framework.ErrorPolicy#STANDARD}) the connection was suspended while it was
 * held. The release has still done its work — local state is cleaned up and the node is deleted
 * if it still exists — but whatever the holder did after the loss may have overlapped with
 * another holder. A fencing token checked downstream is what makes that safe.
 *
 * <p>It is an {@link IllegalMonitorStateException}, the exception Java's own locks throw when a
 * thread releases what it does not hold. Recipes may throw a subclass that names their kind of
 * grant (the lock module's {@code LockOwnershipLostException}); catching this type catches all.
 */
public class OwnershipLostException extends IllegalMonitorStateException {
    private static final long serialVersionUID = 1L;

    /**
     * A lost hold, explained in {@code message}.
     *
     * @param message what was held, and why it was lost
     */
    public OwnershipLostException(String message) {
        super(message);
    }
}

package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** A node with children cannot be deleted (use {@code deletingChildrenIfNeeded()}). */
public class NotEmptyException extends BatonException {
    private static final long serialVersionUID = 1L;

    public NotEmptyException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NOTEMPTY, operation, path, "node has children", cause);
    }

    protected NotEmptyException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NOTEMPTY, operation, path, what, cause);
    }
}

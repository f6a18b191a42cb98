package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** A node with children cannot be deleted (use {@code deletingChildrenIfNeeded()}). */
public class NotEmptyException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "node has children"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public NotEmptyException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NOTEMPTY, operation, path, "node has children", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected NotEmptyException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NOTEMPTY, operation, path, what, cause);
    }
}

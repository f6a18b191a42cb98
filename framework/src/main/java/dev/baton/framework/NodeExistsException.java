package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** A node with that path already exists. */
public class NodeExistsException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "node already exists"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public NodeExistsException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NODEEXISTS, operation, path, "node already exists", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected NodeExistsException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NODEEXISTS, operation, path, what, cause);
    }
}

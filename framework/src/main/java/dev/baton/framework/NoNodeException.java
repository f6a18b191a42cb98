package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The node, or the parent of a node being created, does not exist. */
public class NoNodeException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "no node"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public NoNodeException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NONODE, operation, path, "no node", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected NoNodeException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NONODE, operation, path, what, cause);
    }
}

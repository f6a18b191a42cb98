package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The client's authorization does not allow this operation on the node. */
public class NoAuthException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "not authorized by the node's
     * ACL"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public NoAuthException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NOAUTH, operation, path, "not authorized by the node's ACL", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected NoAuthException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NOAUTH, operation, path, what, cause);
    }
}

package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** An ephemeral node cannot have children. */
public class NoChildrenForEphemeralsException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "ephemeral nodes cannot have
     * children"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public NoChildrenForEphemeralsException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NOCHILDRENFOREPHEMERALS, operation, path, "ephemeral nodes cannot have children", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected NoChildrenForEphemeralsException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NOCHILDRENFOREPHEMERALS, operation, path, what, cause);
    }
}

package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The node's version is not the version the operation required: someone else changed it first. */
public class BadVersionException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "version does not match"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public BadVersionException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.BADVERSION, operation, path, "version does not match", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected BadVersionException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.BADVERSION, operation, path, what, cause);
    }
}

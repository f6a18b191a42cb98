package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The session was re-established on another server while the operation was in flight (retried). */
public class SessionMovedException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "session moved to another
     * server"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public SessionMovedException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.SESSIONMOVED, operation, path, "session moved to another server", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected SessionMovedException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.SESSIONMOVED, operation, path, what, cause);
    }
}

package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The server rejected the client's credentials. */
public class AuthFailedException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "authentication failed"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public AuthFailedException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.AUTHFAILED, operation, path, "authentication failed", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected AuthFailedException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.AUTHFAILED, operation, path, what, cause);
    }
}

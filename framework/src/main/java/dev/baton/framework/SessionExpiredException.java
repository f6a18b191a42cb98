package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The session ended on the server: its ephemeral nodes and watches are gone. The client builds a new session by itself. */
public class SessionExpiredException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "session expired"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public SessionExpiredException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.SESSIONEXPIRED, operation, path, "session expired", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected SessionExpiredException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.SESSIONEXPIRED, operation, path, what, cause);
    }
}

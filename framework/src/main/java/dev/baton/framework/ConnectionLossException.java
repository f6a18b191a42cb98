package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/**
 * The client has no connection to the ensemble: it lost it while the operation was in flight (the
 * retry policy retries that), or it found none within the connection timeout (not retried: the
 * wait for a connection was the retry).
 */
public class ConnectionLossException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "connection to the ensemble
     * lost"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public ConnectionLossException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.CONNECTIONLOSS, operation, path, "connection to the ensemble lost", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    public ConnectionLossException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.CONNECTIONLOSS, operation, path, what, cause);
    }
}

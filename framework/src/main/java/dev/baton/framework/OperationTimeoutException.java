package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The server did not answer in time (retried). */
public class OperationTimeoutException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "operation timed out"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public OperationTimeoutException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.OPERATIONTIMEOUT, operation, path, "operation timed out", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    protected OperationTimeoutException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.OPERATIONTIMEOUT, operation, path, what, cause);
    }
}

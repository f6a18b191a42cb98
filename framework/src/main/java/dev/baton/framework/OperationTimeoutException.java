package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The server did not answer in time (retried). */
public class OperationTimeoutException extends BatonException {
    private static final long serialVersionUID = 1L;

    public OperationTimeoutException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.OPERATIONTIMEOUT, operation, path, "operation timed out", cause);
    }

    protected OperationTimeoutException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.OPERATIONTIMEOUT, operation, path, what, cause);
    }
}

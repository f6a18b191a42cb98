package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/**
 * The client has no connection to the ensemble: it lost it while the operation was in flight (the
 * retry policy retries that), or it found none within the connection timeout (not retried: the
 * wait for a connection was the retry).
 */
public class ConnectionLossException extends BatonException {
    private static final long serialVersionUID = 1L;

    public ConnectionLossException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.CONNECTIONLOSS, operation, path, "connection to the ensemble lost", cause);
    }

    public ConnectionLossException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.CONNECTIONLOSS, operation, path, what, cause);
    }
}

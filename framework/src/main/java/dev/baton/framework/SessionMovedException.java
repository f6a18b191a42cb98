package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The session was re-established on another server while the operation was in flight (retried). */
public class SessionMovedException extends BatonException {
    private static final long serialVersionUID = 1L;

    public SessionMovedException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.SESSIONMOVED, operation, path, "session moved to another server", cause);
    }

    protected SessionMovedException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.SESSIONMOVED, operation, path, what, cause);
    }
}

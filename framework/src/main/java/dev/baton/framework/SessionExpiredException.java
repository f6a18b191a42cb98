package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The session ended on the server: its ephemeral nodes and watches are gone. The client builds a new session by itself. */
public class SessionExpiredException extends BatonException {
    private static final long serialVersionUID = 1L;

    public SessionExpiredException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.SESSIONEXPIRED, operation, path, "session expired", cause);
    }

    protected SessionExpiredException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.SESSIONEXPIRED, operation, path, what, cause);
    }
}

package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The server rejected the client's credentials. */
public class AuthFailedException extends BatonException {
    private static final long serialVersionUID = 1L;

    public AuthFailedException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.AUTHFAILED, operation, path, "authentication failed", cause);
    }

    protected AuthFailedException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.AUTHFAILED, operation, path, what, cause);
    }
}

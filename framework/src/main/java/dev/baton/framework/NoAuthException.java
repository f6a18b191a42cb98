package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The client's authorization does not allow this operation on the node. */
public class NoAuthException extends BatonException {
    private static final long serialVersionUID = 1L;

    public NoAuthException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NOAUTH, operation, path, "not authorized by the node's ACL", cause);
    }

    protected NoAuthException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NOAUTH, operation, path, what, cause);
    }
}

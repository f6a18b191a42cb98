package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The node's version is not the version the operation required: someone else changed it first. */
public class BadVersionException extends BatonException {
    private static final long serialVersionUID = 1L;

    public BadVersionException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.BADVERSION, operation, path, "version does not match", cause);
    }

    protected BadVersionException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.BADVERSION, operation, path, what, cause);
    }
}

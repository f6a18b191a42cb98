package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The node, or the parent of a node being created, does not exist. */
public class NoNodeException extends BatonException {
    private static final long serialVersionUID = 1L;

    public NoNodeException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NONODE, operation, path, "no node", cause);
    }

    protected NoNodeException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NONODE, operation, path, what, cause);
    }
}

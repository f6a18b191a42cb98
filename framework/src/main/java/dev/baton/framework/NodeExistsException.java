package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** A node with that path already exists. */
public class NodeExistsException extends BatonException {
    private static final long serialVersionUID = 1L;

    public NodeExistsException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NODEEXISTS, operation, path, "node already exists", cause);
    }

    protected NodeExistsException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NODEEXISTS, operation, path, what, cause);
    }
}

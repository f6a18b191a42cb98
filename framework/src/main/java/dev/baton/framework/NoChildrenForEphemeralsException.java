package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** An ephemeral node cannot have children. */
public class NoChildrenForEphemeralsException extends BatonException {
    private static final long serialVersionUID = 1L;

    public NoChildrenForEphemeralsException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.NOCHILDRENFOREPHEMERALS, operation, path, "ephemeral nodes cannot have children", cause);
    }

    protected NoChildrenForEphemeralsException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.NOCHILDRENFOREPHEMERALS, operation, path, what, cause);
    }
}

package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** A ZooKeeper failure without a more specific Baton type; {@link #code()} says which. */
public class ZooKeeperException extends BatonException {
    private static final long serialVersionUID = 1L;

    public ZooKeeperException(KeeperException.Code code, String operation, String path, Throwable cause) {
        super(code, operation, path, code.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), cause);
    }
}

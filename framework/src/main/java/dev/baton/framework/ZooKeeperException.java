package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** A ZooKeeper failure without a more specific Baton type; {@link #code()} says which. */
public class ZooKeeperException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path} with ZooKeeper's {@code code}.
     *
     * @param code ZooKeeper's code
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public ZooKeeperException(KeeperException.Code code, String operation, String path, Throwable cause) {
        super(code, operation, path, code.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), cause);
    }
}

package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The ACL is malformed or grants nothing the server accepts. */
public class InvalidAclException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * The failure of {@code operation} on {@code path}, described as {@code "invalid ACL"}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param cause ZooKeeper's exception, or null
     */
    public InvalidAclException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.INVALIDACL, operation, path, "invalid ACL", cause);
    }

    /**
     * The failure of {@code operation} on {@code path}, described as {@code what}.
     *
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...)
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause ZooKeeper's exception, or null
     */
    public InvalidAclException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.INVALIDACL, operation, path, what, cause);
    }
}

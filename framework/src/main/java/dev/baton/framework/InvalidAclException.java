package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/** The ACL is malformed or grants nothing the server accepts. */
public class InvalidAclException extends BatonException {
    private static final long serialVersionUID = 1L;

    public InvalidAclException(String operation, String path, Throwable cause) {
        super(KeeperException.Code.INVALIDACL, operation, path, "invalid ACL", cause);
    }

    public InvalidAclException(String operation, String path, String what, Throwable cause) {
        super(KeeperException.Code.INVALIDACL, operation, path, what, cause);
    }
}

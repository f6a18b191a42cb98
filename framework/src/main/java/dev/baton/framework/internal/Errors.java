package dev.baton.framework.internal;

import dev.baton.framework.AuthFailedException;
import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonException;
import dev.baton.framework.ConnectionLossException;
import dev.baton.framework.Failures;
import dev.baton.framework.InvalidAclException;
import dev.baton.framework.NoAuthException;
import dev.baton.framework.NoChildrenForEphemeralsException;
import dev.baton.framework.NoConnectionException;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.NotEmptyException;
import dev.baton.framework.OperationTimeoutException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.SessionMovedException;
import dev.baton.framework.ZooKeeperException;
import org.apache.zookeeper.KeeperException;

/** The one place ZooKeeper's failures become Baton's. */
public final class Errors {
    private Errors() {
    }

    /** Translates {@code e}, raised by {@code operation} on {@code path} (the caller's path). */
    public static BatonException translate(KeeperException e, String operation, String path) {
        return of(e.code(), operation, path, e);
    }

    /** The exception for ZooKeeper's result {@code code} (not OK). */
    public static BatonException of(KeeperException.Code code, String operation, String path, Throwable cause) {
        return switch (code) {
            case NONODE -> new NoNodeException(operation, path, cause);
            case NODEEXISTS -> new NodeExistsException(operation, path, cause);
            case BADVERSION -> new BadVersionException(operation, path, cause);
            case NOTEMPTY -> new NotEmptyException(operation, path, cause);
            case NOAUTH -> new NoAuthException(operation, path, cause);
            case AUTHFAILED -> new AuthFailedException(operation, path, cause);
            case INVALIDACL -> new InvalidAclException(operation, path, cause);
            case NOCHILDRENFOREPHEMERALS -> new NoChildrenForEphemeralsException(operation, path, cause);
            case SESSIONEXPIRED -> new SessionExpiredException(operation, path, cause);
            case SESSIONMOVED -> new SessionMovedException(operation, path, cause);
            case OPERATIONTIMEOUT, REQUESTTIMEOUT -> new OperationTimeoutException(operation, path, cause);
            case CONNECTIONLOSS -> new ConnectionLossException(operation, path, cause);
            default -> new ZooKeeperException(code, operation, path, cause);
        };
    }

    /** The exception for an asynchronous callback's result code {@code rc}. */
    public static BatonException of(int rc, String operation, String path) {
        return of(KeeperException.Code.get(rc), operation, path, null);
    }

    /**
     * Whether the retry loop may try the operation again after {@code e}: connection trouble
     * ({@link Failures#isConnectionTrouble}) except an expired session, which no retry of an operation
     * tied to it can cure, and {@link NoConnectionException}, which already waited the connection timeout.
     */
    public static boolean isRetryable(BatonException e) {
        return Failures.isConnectionTrouble(e) && !(e instanceof SessionExpiredException) && !(e instanceof NoConnectionException);
    }
}

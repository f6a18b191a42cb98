package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/**
 * Every failure of a ZooKeeper operation or of a recipe's state, unchecked.
 *
 * <p>ZooKeeper's {@code KeeperException} is translated once, at the framework boundary, into the
 * subclass for its kind ({@link NoNodeException}, {@link ConnectionLossException}, ...). The
 * message names the operation and the path ({@code "getData /app/config: no node"}); {@link #code()}
 * keeps ZooKeeper's code for callers that switch on it.
 */
public class BatonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient KeeperException.Code code;
    /** The operation that failed, or null. */
    private final String operation;
    /** The path the operation was given, or null. */
    private final String path;

    /**
     * A failure described by {@code message} alone (no ZooKeeper code, operation or path).
     *
     * @param message what went wrong
     */
    public BatonException(String message) {
        this(message, null);
    }

    /**
     * A failure described by {@code message}, caused by {@code cause}.
     *
     * @param message what went wrong
     * @param cause the failure underneath, or null
     */
    public BatonException(String message, Throwable cause) {
        super(message, cause);
        this.code = null;
        this.operation = null;
        this.path = null;
    }

    /**
     * A failure of {@code operation} on {@code path} with ZooKeeper's {@code code}; {@code what}
     * says what went wrong in words.
     *
     * @param code ZooKeeper's code, or null
     * @param operation the operation that failed ({@code "create"}, {@code "getData"}, ...), or null
     * @param path the path the operation was given (without the namespace), or null
     * @param what what went wrong, in words
     * @param cause the failure underneath, or null
     */
    protected BatonException(KeeperException.Code code, String operation, String path, String what, Throwable cause) {
        super(describe(operation, path, what), cause);
        this.code = code;
        this.operation = operation;
        this.path = path;
    }

    private static String describe(String operation, String path, String what) {
        StringBuilder s = new StringBuilder();
        if (operation != null) {
            s.append(operation);
        }
        if (path != null) {
            s.append(s.length() > 0 ? " " : "").append(path);
        }
        return s.length() > 0 ? s + ": " + what : what;
    }

    /**
     * ZooKeeper's code for this failure, or null when it did not come from ZooKeeper.
     *
     * @return ZooKeeper's code for this failure, or null when it did not come from ZooKeeper
     */
    public KeeperException.Code code() {
        return code;
    }

    /** {@return the operation that failed ({@code "create"}, {@code "getData"}, ...), or null} */
    public String operation() {
        return operation;
    }

    /** {@return the path the operation was given (without the client's namespace), or null} */
    public String path() {
        return path;
    }
}

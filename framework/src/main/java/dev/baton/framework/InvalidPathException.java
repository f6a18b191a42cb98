package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/**
 * A path ZooKeeper would refuse: not absolute, a trailing slash (except before a sequential
 * suffix), an empty segment, {@code .} or {@code ..} segments, or characters ZooKeeper forbids.
 * Raised before anything is sent.
 */
public class InvalidPathException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * {@code path}, given to {@code operation}, is not a path ZooKeeper (or the recipe) accepts.
     *
     * @param operation the operation or recipe that was given the path ({@code "create"}, {@code
     *     "InterProcessMutex"}, ...)
     * @param path the path received, or null
     * @param reason what is wrong with it, and the form expected
     */
    public InvalidPathException(String operation, String path, String reason) {
        super(KeeperException.Code.BADARGUMENTS, operation, path == null ? "null" : "'" + path + "'",
            "invalid path: " + reason, null);
    }
}

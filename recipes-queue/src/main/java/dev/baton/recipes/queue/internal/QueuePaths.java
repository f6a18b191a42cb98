package dev.baton.recipes.queue.internal;

import java.util.Objects;
import org.apache.zookeeper.common.PathUtils;

/** Checks the paths users give, at once, with a message naming the bad value. */
public final class QueuePaths {
    private QueuePaths() {
    }

    /** Returns {@code path} if it is a valid ZooKeeper path other than the root. */
    public static String validate(String what, String path) {
        Objects.requireNonNull(path, what);
        try {
            PathUtils.validatePath(path);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " must be an absolute ZooKeeper path like /app/queue, was '" + path + "': "
                + e.getMessage(), e);
        }
        if (path.equals("/")) {
            throw new IllegalArgumentException(what + " must not be the root node '/'");
        }
        return path;
    }
}

package dev.baton.recipes.lock;

import dev.baton.framework.InvalidPathException;
import org.apache.zookeeper.common.PathUtils;

/** Checks a recipe's path before anything is derived from it, so errors name the path the caller gave. */
final class LockPaths {
    private LockPaths() {
    }

    static String validate(String recipe, String path) {
        if (path == null) {
            throw new InvalidPathException(recipe, null, "a path is required");
        }
        try {
            PathUtils.validatePath(path);
        } catch (IllegalArgumentException e) {
            throw new InvalidPathException(recipe, path, e.getMessage());
        }
        if (path.equals("/")) {
            throw new InvalidPathException(recipe, path, "a recipe needs its own folder, not the root");
        }
        return path;
    }
}

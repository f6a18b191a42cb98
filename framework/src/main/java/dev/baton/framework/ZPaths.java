package dev.baton.framework;

import dev.baton.framework.internal.Paths;

/** Path rules for recipes and applications: ZooKeeper's validation, and joining and splitting paths. */
public final class ZPaths {
    private ZPaths() {
    }

    /**
     * Checks {@code path} as ZooKeeper would (absolute, no trailing slash, no empty or relative
     * segment, no forbidden character) and returns it.
     *
     * @param what names the caller in the error ({@code "InterProcessMutex"}, {@code "create"})
     * @throws InvalidPathException naming the path and what is wrong with it
     */
    public static String validate(String what, String path) {
        return Paths.validate(what, path, false);
    }

    /** {@code parent + "/" + child}, without doubling the slash under the root. */
    public static String join(String parent, String child) {
        return Paths.join(parent, child);
    }

    /** The parent of {@code path} ({@code "/"} for a top-level node). */
    public static String parent(String path) {
        return Paths.parent(path);
    }

    /** The last segment of {@code path}. */
    public static String name(String path) {
        return Paths.name(path);
    }
}

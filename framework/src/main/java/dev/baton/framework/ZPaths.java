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
     * @param path the path to check
     * @return {@code path}
     * @throws InvalidPathException naming the path and what is wrong with it
     */
    public static String validate(String what, String path) {
        return Paths.validate(what, path, false);
    }

    /**
     * Checks the folder a recipe was given: valid as {@link #validate} checks, and not the root
     * (a recipe needs a folder of its own). Recipes call this in their constructor,
     * so a bad path fails at once with a message naming the recipe, the path received and the
     * form expected: {@code "InterProcessMutex 'locks': invalid path: Path must start with /
     * character (expected an absolute znode path such as /app/reports)"}.
     *
     * @param recipe names the recipe (and the setting, where it has several paths) in the error
     * @param path the path the recipe was given
     * @return {@code path}
     * @throws InvalidPathException naming the recipe, the path and what is wrong with it
     */
    public static String validateRecipePath(String recipe, String path) {
        return Paths.validateRecipe(recipe, path, false);
    }

    /**
     * Like {@link #validateRecipePath}, for a recipe whose nodes may live directly under the root
     * (a service-discovery base path of {@code "/"}).
     *
     * @param recipe names the recipe (and the setting) in the error
     * @param path the path the recipe was given
     * @return {@code path}
     * @throws InvalidPathException naming the recipe, the path and what is wrong with it
     */
    public static String validateBasePath(String recipe, String path) {
        return Paths.validateRecipe(recipe, path, true);
    }

    /**
     * {@return {@code parent + "/" + child}, without doubling the slash under the root}
     *
     * @param parent a path
     * @param child a name, or a relative path
     */
    public static String join(String parent, String child) {
        return Paths.join(parent, child);
    }

    /**
     * {@return the parent of {@code path} ({@code "/"} for a top-level node)}
     *
     * @param path a path
     */
    public static String parent(String path) {
        return Paths.parent(path);
    }

    /**
     * {@return the last segment of {@code path}}
     *
     * @param path a path
     */
    public static String name(String path) {
        return Paths.name(path);
    }
}

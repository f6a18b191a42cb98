package dev.baton.recipes.discovery;

import dev.baton.framework.InvalidPathException;
import dev.baton.framework.ZPaths;
import java.util.Objects;
import org.apache.zookeeper.common.PathUtils;

/** Checks of the names that become znode paths: base paths, service names and instance ids. */
final class Names {
    private Names() {
    }

    /**
     * Checks that {@code value} can be one segment of a znode path (a service name or an instance id).
     *
     * @throws IllegalArgumentException naming {@code what}, the expectation and the value
     */
    public static String segment(String what, String value) {
        Objects.requireNonNull(value, what);
        if (value.isEmpty() || value.indexOf('/') >= 0 || value.equals(".") || value.equals("..")) {
            throw new IllegalArgumentException(what + " must be a non-empty znode name without '/' (and not '.' or '..'), was '"
                + value + "'");
        }
        try {
            PathUtils.validatePath("/" + value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " '" + value + "' cannot be a znode name: " + e.getMessage(), e);
        }
        return value;
    }

    /**
     * Checks an absolute znode path such as {@code "/services"} (the root is allowed).
     *
     * @throws InvalidPathException naming the discovery's base path, the value and the expectation
     */
    public static String basePath(String path) {
        return ZPaths.validateBasePath("ServiceDiscovery basePath", path);
    }

    /** {@code parent + "/" + child}, without doubling the slash under the root. */
    public static String join(String parent, String child) {
        return parent.equals("/") ? "/" + child : parent + "/" + child;
    }
}

package dev.baton.framework.internal;

import dev.baton.framework.InvalidPathException;
import org.apache.zookeeper.common.PathUtils;

/**
 * Path rules: validation (ZooKeeper's own rules, checked before sending), the client's namespace,
 * and parent/name splitting.
 */
public final class Paths {
    private Paths() {
    }

    /**
     * Checks {@code path} as ZooKeeper would. A trailing slash is allowed only when the server
     * appends a sequence number ({@code sequential}).
     *
     * @throws InvalidPathException naming the path and what is wrong with it
     */
    public static String validate(String operation, String path, boolean sequential) {
        if (path == null) {
            throw new InvalidPathException(operation, null, "a path is required");
        }
        try {
            PathUtils.validatePath(path, sequential);
        } catch (IllegalArgumentException e) {
            throw new InvalidPathException(operation, path, reason(e));
        }
        return path;
    }

    /**
     * Checks the path a recipe was given: what {@link #validate} checks, and, unless
     * {@code rootAllowed}, that it is not the root (a recipe keeps its nodes in a folder of its own).
     * Every message names {@code recipe}, the path received and the form expected.
     *
     * @throws InvalidPathException naming the recipe, the path and what is wrong with it
     */
    public static String validateRecipe(String recipe, String path, boolean rootAllowed) {
        String expected = rootAllowed
            ? "expected an absolute znode path such as /services"
            : "expected an absolute znode path such as /app/reports";
        if (path == null) {
            throw new InvalidPathException(recipe, null, "a path is required (" + expected + ")");
        }
        try {
            PathUtils.validatePath(path);
        } catch (IllegalArgumentException e) {
            throw new InvalidPathException(recipe, path, reason(e) + " (" + expected + ")");
        }
        if (!rootAllowed && path.equals("/")) {
            throw new InvalidPathException(recipe, path,
                "a recipe needs a folder of its own, not the root (expected an absolute znode path such as /app/reports)");
        }
        return path;
    }

    /** ZooKeeper's reason without its "Invalid path string ... caused by" preamble. */
    private static String reason(IllegalArgumentException e) {
        String reason = e.getMessage();
        int cause = reason == null ? -1 : reason.indexOf("caused by ");
        return cause >= 0 ? reason.substring(cause + "caused by ".length()) : reason;
    }

    /** Checks a namespace: a relative path ({@code "app"}, {@code "app/v2"}) or null/empty for none. */
    public static String validateNamespace(String namespace) {
        if (namespace == null || namespace.isEmpty()) {
            return null;
        }
        if (namespace.startsWith("/")) {
            throw new IllegalArgumentException("namespace must not start with '/', was '" + namespace + "'");
        }
        try {
            PathUtils.validatePath("/" + namespace);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("namespace '" + namespace + "' is not a valid path: " + e.getMessage(), e);
        }
        return namespace;
    }

    /** The server path of the caller's {@code path} under {@code namespace} (null: none). */
    public static String fix(String namespace, String path) {
        if (namespace == null) {
            return path;
        }
        return path.equals("/") ? "/" + namespace : "/" + namespace + path;
    }

    /** The caller's path for a server path under {@code namespace}. */
    public static String unfix(String namespace, String serverPath) {
        if (namespace == null || serverPath == null) {
            return serverPath;
        }
        String root = "/" + namespace;
        if (serverPath.equals(root)) {
            return "/";
        }
        return serverPath.startsWith(root + "/") ? serverPath.substring(root.length()) : serverPath;
    }

    /** The parent of {@code path} ({@code "/"} for a top-level node). */
    public static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    /** The last segment of {@code path} (may be empty for a sequential create's {@code "/dir/"}). */
    public static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** {@code parent + "/" + child}, without doubling the slash under the root. */
    public static String join(String parent, String child) {
        return parent.equals("/") ? "/" + child : parent + "/" + child;
    }

    /**
     * Whether {@code s} is the number ZooKeeper appends to a sequential node's name: digits (ten of
     * them as ZooKeeper writes it; other clients' names may have other widths), with a '-' first
     * once the parent's counter has overflowed. The one test for it, so that the contention engine
     * and the search for a protected create's node agree on which names are in line.
     *
     * @param s what follows a sequential node's stem
     * @return whether it is a sequence number
     */
    public static boolean isSequenceNumber(String s) {
        int start = s.startsWith("-") ? 1 : 0;
        if (start == s.length()) {
            return false;
        }
        for (int i = start; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Length of {@code s} in UTF-8 bytes. */
    public static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}

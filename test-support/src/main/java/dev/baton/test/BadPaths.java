package dev.baton.test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.baton.framework.InvalidPathException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * One check that a recipe refuses bad paths the same way every recipe does: at once, with an
 * {@link InvalidPathException} whose message names the recipe, the path received and the form
 * expected.
 *
 * <pre>{@code
 * BadPaths.assertRefused("InterProcessMutex", path -> new InterProcessMutex(client, path));
 * }</pre>
 */
public final class BadPaths {
    /** Paths ZooKeeper refuses: relative, a trailing slash, an empty segment, a relative segment, none. */
    public static final List<String> INVALID = Collections.unmodifiableList(Arrays.asList(
        "relative", "/trailing/", "/a//b", "/a/../b", null));

    private BadPaths() {
    }

    /**
     * {@code construct} refuses every {@link #INVALID} path and the root.
     *
     * @param recipe the name every message must start with (the recipe, and the setting if it has several
     *     paths)
     * @param construct builds the recipe, or sets the path, with the path it is given
     */
    public static void assertRefused(String recipe, Consumer<String> construct) {
        List<String> paths = new ArrayList<>(INVALID);
        paths.add("/");
        check(recipe, construct, paths);
    }

    /**
     * {@code construct} refuses every {@link #INVALID} path (the root is allowed, as for a discovery base
     * path).
     *
     * @param recipe the name every message must start with (the recipe, and the setting if it has several
     *     paths)
     * @param construct builds the recipe, or sets the path, with the path it is given
     */
    public static void assertRefusedExceptRoot(String recipe, Consumer<String> construct) {
        check(recipe, construct, INVALID);
    }

    private static void check(String recipe, Consumer<String> construct, List<String> paths) {
        for (String path : paths) {
            InvalidPathException e = assertThrows(InvalidPathException.class, () -> construct.accept(path),
                () -> recipe + " accepted the path " + path);
            String message = e.getMessage();
            String shown = path == null ? "null" : "'" + path + "'";
            assertTrue(message.startsWith(recipe + " "), () -> "the message should start with the recipe's name " + recipe
                + ", was: " + message);
            assertTrue(message.contains(shown), () -> "the message should show the path " + shown + ", was: " + message);
            assertTrue(message.contains("expected"), () -> "the message should say what was expected, was: " + message);
        }
    }
}

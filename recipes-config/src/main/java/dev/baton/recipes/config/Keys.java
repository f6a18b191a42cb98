package dev.baton.recipes.config;

import dev.baton.framework.InvalidPathException;
import dev.baton.framework.ZPaths;

/**
 * The mapping between a store's keys and its znodes: {@code <base>/<key>}, with the release fence
 * reserved; the history entries live next to the base, at {@code <base>.history/release-<n>}, out
 * of the subtree the store watches (before the layout change they were the fence's children).
 */
final class Keys {
    /** The fence of releases, directly under the base (in the first layout also the parent of the history entries). */
    static final String RELEASES = ".releases";
    /** What the base's path is followed by to name the history's folder, a sibling of the base. */
    static final String HISTORY_SUFFIX = ".history";

    private final String base;
    private final String prefix;
    private final String fence;
    private final String history;

    Keys(String base) {
        this.base = ZPaths.validateRecipePath("ConfigStore", base);
        // a recipe path is never the root, so the base always has a parent to hold the history's folder
        this.prefix = base + "/";
        this.fence = prefix + RELEASES;
        this.history = base + HISTORY_SUFFIX;
    }

    String base() {
        return base;
    }

    String fence() {
        return fence;
    }

    /** The folder of the history entries: a sibling of the base, so that watchers of the base get no event of it. */
    String history() {
        return history;
    }

    /** The history entry of release {@code number} in the current layout. */
    String historyEntry(long number) {
        return history + "/" + historyName(number);
    }

    /** The history entry of release {@code number} in the first layout, under the fence. */
    String legacyHistoryEntry(long number) {
        return fence + "/" + historyName(number);
    }

    /**
     * {@code release-} and the number zero-padded to ten digits ({@code String.format}'s
     * {@code %010d}, written out: a release names two or three entries on its writer's thread, and
     * the formatter took a third of its client work).
     */
    static String historyName(long number) {
        if (number < 0) {
            return String.format("release-%010d", number); // no release has one; kept as the format wrote it
        }
        String digits = Long.toString(number);
        return digits.length() >= 10 ? "release-" + digits : "release-" + "0000000000".substring(digits.length()) + digits;
    }

    /** The release number of a history entry's name, or -1 if it is not one. */
    static long historyNumber(String name) {
        if (!name.startsWith("release-")) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring("release-".length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Checks {@code key} and returns its znode path.
     *
     * @throws InvalidKeyException naming the key and what is wrong with it
     */
    String path(String key) {
        check(key);
        return prefix + key;
    }

    /** Checks a key (what {@link #path} accepts). */
    static String check(String key) {
        if (key == null) {
            throw new InvalidKeyException(null, "a key is required");
        }
        if (key.isEmpty()) {
            throw new InvalidKeyException(key, "it is empty");
        }
        if (key.startsWith("/")) {
            throw new InvalidKeyException(key, "it starts with '/'; keys are relative to the store's base path");
        }
        if (key.endsWith("/")) {
            throw new InvalidKeyException(key, "it ends with '/'");
        }
        if (key.equals(RELEASES) || key.startsWith(RELEASES + "/")) {
            throw new InvalidKeyException(key, "'" + RELEASES + "' is reserved for the store's releases");
        }
        for (String part : key.split("/", -1)) {
            // ZooKeeper's own words for these ("empty node name specified @4", "relative paths not allowed @2")
            // name neither the part nor why
            if (part.isEmpty()) {
                throw new InvalidKeyException(key, "it has an empty part ('//')");
            }
            if (part.equals(".") || part.equals("..")) {
                throw new InvalidKeyException(key, "'" + part + "' cannot be a part of a key: keys name znodes, with no relative steps");
            }
        }
        try {
            ZPaths.validate("config key", "/" + key);
        } catch (InvalidPathException e) {
            String message = e.getMessage();
            int reason = message.indexOf("invalid path: ");
            throw new InvalidKeyException(key, reason < 0 ? message : message.substring(reason + "invalid path: ".length()));
        }
        return key;
    }

    /** Checks a prefix: a key, or "" for every key. */
    static String checkPrefix(String prefix) {
        return prefix != null && prefix.isEmpty() ? prefix : check(prefix);
    }

    /** Whether {@code key} is {@code prefix} itself or lies under it ("" matches every key). */
    static boolean under(String key, String prefix) {
        return prefix.isEmpty() || key.equals(prefix) || (key.startsWith(prefix) && key.charAt(prefix.length()) == '/');
    }

    /** The key of a znode path under the base, or null for the base, the fence, and paths outside. */
    String keyOf(String path) {
        if (!path.startsWith(prefix) || path.length() == prefix.length() || path.equals(fence) || path.startsWith(fence + "/")) {
            return null;
        }
        return path.substring(prefix.length());
    }

    /** The ancestors of {@code key} strictly between the base and the key, as znode paths, outermost first. */
    String[] ancestors(String key) {
        String[] parts = key.split("/");
        String[] out = new String[parts.length - 1];
        StringBuilder path = new StringBuilder(prefix);
        for (int i = 0; i < parts.length - 1; i++) {
            if (i > 0) {
                path.append('/');
            }
            path.append(parts[i]);
            out[i] = path.toString();
        }
        return out;
    }
}

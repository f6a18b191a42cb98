package dev.baton.recipes.config;

import dev.baton.framework.BatonException;

/** A key that is not a relative path under the store's base, or is reserved. Raised before anything is sent. */
public class InvalidKeyException extends BatonException {
    private static final long serialVersionUID = 1L;

    /** The key (or path) the error is about. */
    private final String key;

    /**
     * A key refused for {@code reason}.
     *
     * @param key the key as given (may be null)
     * @param reason what is wrong with it
     */
    public InvalidKeyException(String key, String reason) {
        this(key, reason, true);
    }

    /** A key refused for {@code reason}; {@code shape}: whether to add what a key looks like (not for a well-formed key refused for its place). */
    InvalidKeyException(String key, String reason, boolean shape) {
        super("invalid config key " + (key == null ? "null" : "'" + key + "'") + ": " + reason
            + (shape ? " (a key is a relative path such as 'db/url')" : ""));
        this.key = key;
    }

    /**
     * The key as given.
     *
     * @return the refused key (null if null was given)
     */
    public String key() {
        return key;
    }
}

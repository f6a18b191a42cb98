package dev.baton.recipes.config;

import dev.baton.framework.BatonException;

/** A key that is not a relative path under the store's base, or is reserved. Raised before anything is sent. */
public class InvalidKeyException extends BatonException {
    private static final long serialVersionUID = 1L;

    private final String key;

    public InvalidKeyException(String key, String reason) {
        super("invalid config key " + (key == null ? "null" : "'" + key + "'") + ": " + reason
            + " (a key is a relative path such as 'db/url')");
        this.key = key;
    }

    /** The key as given. */
    public String key() {
        return key;
    }
}

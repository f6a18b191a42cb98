package dev.baton.recipes.config;

import dev.baton.framework.BatonException;

/** A value that cannot be read as the type asked for (an int, a duration, a JSON object, ...). */
public class ConfigValueException extends BatonException {
    private static final long serialVersionUID = 1L;

    private final String key;

    public ConfigValueException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    /** The key whose value it was (or the path, for a shared value or counter). */
    public String key() {
        return key;
    }
}

package dev.baton.recipes.config;

import dev.baton.framework.BatonException;

/** A value that cannot be read as the type asked for (an int, a duration, a JSON object, ...). */
public class ConfigValueException extends BatonException {
    private static final long serialVersionUID = 1L;

    /** The key (or path) the error is about. */
    private final String key;

    /**
     * A value of {@code key} that could not be read.
     *
     * @param key the key (or path) whose value it was
     * @param message what was expected and what the value was
     * @param cause the parser's error, or null
     */
    public ConfigValueException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    /**
     * The key whose value it was.
     *
     * @return the key, or the path for a shared value or counter
     */
    public String key() {
        return key;
    }
}

package dev.baton.recipes.config;

import dev.baton.framework.BatonException;

/** A release that the store's history does not (or no longer) hold, or that cannot be rolled back to. */
public class NoSuchReleaseException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * A release that cannot be used.
     *
     * @param message which release, and what the store holds instead
     */
    public NoSuchReleaseException(String message) {
        super(message);
    }
}

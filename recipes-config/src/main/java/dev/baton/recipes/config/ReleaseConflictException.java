package dev.baton.recipes.config;

import dev.baton.framework.BatonException;

/**
 * A release could not be written over the state it expected: another release came first (with
 * {@link ReleaseBuilder#onlyIfRelease}), or other writers kept changing its keys through every
 * retry. Nothing of it was written.
 */
public class ReleaseConflictException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * A release that lost to other writers.
     *
     * @param message the release expected and the state found
     */
    public ReleaseConflictException(String message) {
        super(message);
    }
}

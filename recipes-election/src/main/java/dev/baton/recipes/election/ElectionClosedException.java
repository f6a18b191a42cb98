package dev.baton.recipes.election;

import dev.baton.framework.BatonException;

/** A latch, selector or observer was used, or waited on, after it was closed. */
public final class ElectionClosedException extends BatonException {
    /**
     * A closed election recipe, named in {@code message}.
     *
     * @param message which recipe, on which path, was closed
     */
    public ElectionClosedException(String message) {
        super(message);
    }
}

package dev.baton.recipes.election;

import dev.baton.framework.BatonException;

/** A latch or selector was used, or waited on, after it was closed. */
public final class ElectionClosedException extends BatonException {
    public ElectionClosedException(String message) {
        super(message);
    }
}

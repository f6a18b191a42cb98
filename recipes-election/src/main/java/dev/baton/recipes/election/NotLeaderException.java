package dev.baton.recipes.election;

import dev.baton.framework.BatonException;

/** A leader-only operation (such as proclaim) was called by a participant that does not lead. */
public final class NotLeaderException extends BatonException {
    public NotLeaderException(String message) {
        super(message);
    }
}

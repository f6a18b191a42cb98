package dev.baton.recipes.election;

import dev.baton.framework.BatonException;

/** A leader-only operation (such as proclaim) was called by a participant that does not lead. */
public final class NotLeaderException extends BatonException {
    /**
     * A leader-only call made by a participant that does not lead.
     *
     * @param message which participant, in which election
     */
    public NotLeaderException(String message) {
        super(message);
    }
}

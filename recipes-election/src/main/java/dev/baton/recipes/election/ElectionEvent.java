package dev.baton.recipes.election;

import java.util.Objects;

/** What an {@link ElectionObserver} reports: who leads an election now. */
public sealed interface ElectionEvent permits ElectionEvent.LeaderChanged, ElectionEvent.NoLeader {

    /**
     * A participant leads, in the term {@code token} (the czxid of its node). Reported for a new
     * term, and again with the same token when the leader proclaims a new id.
     *
     * @param leader the participant that leads
     * @param token the term's fencing token: larger than every earlier term's
     */
    record LeaderChanged(Participant leader, long token) implements ElectionEvent {
        /**
         * Checks that there is a leader.
         *
         * @param leader the participant that leads
         * @param token the term's fencing token
         */
        public LeaderChanged {
            Objects.requireNonNull(leader, "leader");
        }
    }

    /** Nobody is in line. */
    record NoLeader() implements ElectionEvent {
    }
}

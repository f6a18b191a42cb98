package dev.baton.recipes.election;

import java.util.Objects;

/**
 * One contender in an election, as the servers show it.
 *
 * @param id what the participant publishes in its node: the id it was created with, or what it
 *     proclaimed since (see {@link LeaderLatch#proclaim(String)})
 * @param isLeader whether its node is first in line. The first node is the one entitled to lead;
 *     whether that process is acting as leader right now also depends on its
 *     {@link LeadershipPolicy} (a leader cut off from the ensemble may have stepped down while its
 *     node is still first)
 */
public record Participant(String id, boolean isLeader) {
    /**
     * Checks that there is an id.
     *
     * @param id what the participant publishes in its node
     * @param isLeader whether its node is first in line
     */
    public Participant {
        Objects.requireNonNull(id, "id");
    }

    /**
     * Curator's name for {@link #id()}.
     *
     * @return what {@link #id()} returns
     */
    public String getId() {
        return id;
    }
}

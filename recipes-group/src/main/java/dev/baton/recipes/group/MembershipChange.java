package dev.baton.recipes.group;

import java.util.Objects;

/**
 * A change of a group's membership, as a {@link GroupMember}'s cache saw it.
 *
 * @param kind what happened
 * @param memberId the member's id (the last segment of its node's path)
 * @param data the member's data after the change (before it, for LEFT); the array is shared, do not change it
 */
public record MembershipChange(Kind kind, String memberId, byte[] data) {
    /** Kinds of change. */
    public enum Kind {
        /** A member appeared: it joined, or it is back after its node was gone. */
        JOINED,
        /** A member's data changed. */
        UPDATED,
        /** A member's node went: it left, closed, or its session ended. */
        LEFT
    }

    /**
     * A change; every component is required.
     *
     * @param kind what happened
     * @param memberId the member's id
     * @param data the member's data after the change (before it, for LEFT)
     */
    public MembershipChange {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(memberId, "memberId");
        Objects.requireNonNull(data, "data");
    }

    @Override
    public String toString() {
        return kind + " " + memberId + " (" + data.length + " bytes)";
    }
}

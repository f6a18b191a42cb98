package dev.baton.recipes.group;

/**
 * Told of every change of a group's membership a {@link GroupMember} sees, in order, on the
 * client's event executor. A listener that throws is logged and keeps receiving later changes.
 */
@FunctionalInterface
public interface GroupListener {
    /**
     * One change of the membership.
     *
     * @param change what changed: who joined, changed their data or left
     */
    void membershipChanged(MembershipChange change);
}

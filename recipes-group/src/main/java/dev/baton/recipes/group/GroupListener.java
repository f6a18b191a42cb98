package dev.baton.recipes.group;

/**
 * Told of every change of a group's membership a {@link GroupMember} sees, in order, on the
 * client's event executor. A listener that throws is logged and keeps receiving later changes.
 */
@FunctionalInterface
public interface GroupListener {
    void membershipChanged(MembershipChange change);
}

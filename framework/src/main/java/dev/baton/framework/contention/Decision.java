package dev.baton.framework.contention;

import java.util.Objects;

/**
 * What a contender should do, given the line as it stands: hold, or wait for one node to go.
 *
 * @param holds whether the contender holds now
 * @param watch the node (name, not path) to wait for when not holding; null when holding
 * @param holdsWhenWatchedGoes whether the deletion of {@code watch} alone makes the contender a
 *     holder. Sequence numbers only grow, so nobody can join the line ahead of it: when the
 *     rule can prove that {@code watch} is the last obstacle, the engine takes the hand-off
 *     without listing the children again.
 */
public record Decision(boolean holds, String watch, boolean holdsWhenWatchedGoes) {
    private static final Decision HOLD = new Decision(true, null, false);

    /**
     * Checks the components: a holder watches nothing, a waiter watches a node.
     *
     * @param holds whether the contender holds now
     * @param watch the node to wait for when not holding; null when holding
     * @param holdsWhenWatchedGoes whether the deletion of {@code watch} alone makes the contender a holder
     */
    public Decision {
        if (holds && watch != null) {
            throw new IllegalArgumentException("a holder watches nothing, but watch was " + watch);
        }
        if (!holds) {
            Objects.requireNonNull(watch, "a waiter must watch a node");
        }
    }

    /** {@return the contender holds} */
    public static Decision hold() {
        return HOLD;
    }

    /**
     * {@return the contender waits for {@code node} to go; {@code holdsWhenGone} as in {@link
     * #holdsWhenWatchedGoes()}}
     *
     * @param node the node (name, not path) to wait for
     * @param holdsWhenGone whether its deletion alone makes the contender a holder
     */
    public static Decision waitFor(String node, boolean holdsWhenGone) {
        return new Decision(false, node, holdsWhenGone);
    }
}

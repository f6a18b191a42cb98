package dev.baton.framework.contention;

import java.util.List;

/**
 * The only part of a ticket-based recipe that differs from recipe to recipe: given every
 * contender's node in sequence order and the position of mine, do I hold, and if not, which single
 * node do I wait for? A pure function, tested without a server.
 *
 * <p>To stay herd-free, a rule must pick a node whose deletion is the next event that can change
 * its answer, and no two waiters may need the same node; to stay live, every node that blocks a
 * waiter must be watched by the waiter it blocks, directly or through the chain of waiters ahead.
 */
@FunctionalInterface
public interface ContentionRule {
    /**
     * @param ordered contenders' node names, by sequence number (lowest first)
     * @param mine index of my node in {@code ordered}
     * @return whether the contender at {@code mine} holds, and if not, whom it waits for
     */
    Decision decide(List<String> ordered, int mine);

    /**
     * {@return one holder at a time, first come first served: the first node holds, every other waits for
     * the node just before it (a chain, so one release wakes one waiter)} The lock of mutexes,
     * leader latches and selectors.
     */
    static ContentionRule mutex() {
        return (ordered, mine) -> mine == 0
            ? Decision.hold()
            : Decision.waitFor(ordered.get(mine - 1), mine == 1);
    }
}

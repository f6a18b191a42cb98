package dev.baton.recipes.lock;

import java.util.Collection;

/**
 * The semaphore's decision, a pure function: given the children of the {@code leases} folder,
 * does my lease hold?
 *
 * <p>Every node in {@code leases} is a lease that is held, except the one node whose creator is
 * still counting — and only the holder of the semaphore's internal mutex creates a lease and
 * counts. So my lease holds as soon as there are at most {@code maxLeases} nodes. Every child
 * counts, whatever its name, as Curator counts them: a stray node only makes the semaphore
 * stricter.
 */
final class SemaphoreRule {
    /** What the lease's creator should do. */
    enum Verdict {
        /** There is room: the lease holds. */
        HOLD,
        /** Too many leases: wait for the folder's children to change. */
        WAIT,
        /** My node is not there (its session ended): start again. */
        MISSING
    }

    private SemaphoreRule() {
    }

    static Verdict decide(Collection<String> leases, String mine, int maxLeases) {
        if (!leases.contains(mine)) {
            return Verdict.MISSING;
        }
        return leases.size() <= maxLeases ? Verdict.HOLD : Verdict.WAIT;
    }
}

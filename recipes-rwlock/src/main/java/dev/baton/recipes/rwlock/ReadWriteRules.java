package dev.baton.recipes.rwlock;

import dev.baton.framework.contention.Contenders;
import dev.baton.framework.contention.Decision;
import java.util.List;
import java.util.Set;

/**
 * The decisions of the read/write lock: pure functions from the line (every reader's and
 * writer's node, in sequence order) to "hold, or wait for this one node". Used as the contention
 * engine's rules ({@code ReadWriteRules::read}, {@code ReadWriteRules::write}).
 *
 * <p>A reader holds when no writer's node is ahead of its own, and otherwise waits for the
 * <em>nearest</em> writer ahead — the last obstacle it will see go, so it wakes once, when it can
 * go (or when that writer gave up). A writer holds when its node is first, and otherwise waits for
 * the node just before its own. Both are herd-free: a release wakes only those it lets in, or the
 * one writer behind it.
 *
 * <p>When the watched node's deletion alone makes the waiter a holder, the engine takes the
 * hand-off without listing the line again ({@link Decision#holdsWhenWatchedGoes()}). That is only
 * claimed when no node can appear ahead of the waiter: sequence numbers only grow, and the one
 * node that is ever placed in an existing position is a downgrade's read node, put in the place of
 * the write node it comes from while that write node still exists. So:
 * <ul>
 *   <li>a reader takes the hand-off when the writer it watches is the only writer ahead (a
 *       downgrade can only add a reader ahead, which does not block it);</li>
 *   <li>a writer takes it when it is second in line behind a <em>reader</em>. Behind a writer it
 *       lists again: that writer may have downgraded, leaving a read node in its place.</li>
 * </ul>
 */
public final class ReadWriteRules {
    /** The marker of read nodes, as Curator names them: {@code _c_<uuid>-__READ__<seq>}. */
    public static final String READ_MARKER = "__READ__";
    /** The marker of write nodes, as Curator names them: {@code _c_<uuid>-__WRIT__<seq>}. */
    public static final String WRITE_MARKER = "__WRIT__";
    /** Both: readers and writers stand in one line. */
    public static final Set<String> MARKERS = Set.of(READ_MARKER, WRITE_MARKER);

    private ReadWriteRules() {
    }

    /**
     * {@return whether {@code node} (a name in the line) is a writer's}
     *
     * @param node a node's name in the lock's folder
     */
    public static boolean isWriter(String node) {
        return WRITE_MARKER.equals(Contenders.markerOf(node, MARKERS));
    }

    /**
     * {@return a reader's decision: hold when no writer is ahead; otherwise wait for the nearest writer
     * ahead, taking the hand-off when it is the only one}
     *
     * @param ordered the line, by sequence number
     * @param mine index of the reader's node in {@code ordered}
     */
    public static Decision read(List<String> ordered, int mine) {
        checkIndex(ordered, mine);
        int nearest = -1;
        int writersAhead = 0;
        for (int i = 0; i < mine; i++) {
            if (isWriter(ordered.get(i))) {
                nearest = i;
                writersAhead++;
            }
        }
        if (nearest < 0) {
            return Decision.hold();
        }
        return Decision.waitFor(ordered.get(nearest), writersAhead == 1);
    }

    /**
     * {@return a writer's decision: hold when first; otherwise wait for the node just before, taking the
     * hand-off only when that node is a reader at the head of the line}
     *
     * @param ordered the line, by sequence number
     * @param mine index of the writer's node in {@code ordered}
     */
    public static Decision write(List<String> ordered, int mine) {
        checkIndex(ordered, mine);
        if (mine == 0) {
            return Decision.hold();
        }
        String predecessor = ordered.get(mine - 1);
        return Decision.waitFor(predecessor, mine == 1 && !isWriter(predecessor));
    }

    private static void checkIndex(List<String> ordered, int mine) {
        if (mine < 0 || mine >= ordered.size()) {
            throw new IllegalArgumentException("mine must index the line of " + ordered.size() + " node(s), was " + mine);
        }
    }
}

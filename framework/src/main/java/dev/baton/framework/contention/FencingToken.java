package dev.baton.framework.contention;

/**
 * The full fencing token of a lock hold: the creation zxid of the node it rests on, and the number
 * of the hold on that node. Tokens compare in that order, and every hold's is strictly greater than
 * every earlier hold's on the same lock, across processes.
 *
 * <p>Why a pair. A hold of an ordinary {@code InterProcessMutex} rests on a node of its own, so its
 * zxid alone is strictly increasing and {@code handOff} is always 0. In the {@link SharedTicket}
 * mode several holds, one after the other, rest on one node of the process; they share its zxid and
 * are told apart by {@code handOff} (0 for the node's first hold, then 1, 2, ...). A zxid fills a
 * {@code long} (epoch in the high 32 bits, counter in the low 32), so the two cannot be packed into
 * one {@code long} without loss. Ordering against other processes: a later holder's node was
 * created after this node (the line is in creation order, and a process that yields takes a new
 * node), so its zxid is larger and it compares greater whatever the hand-off numbers.
 *
 * <p>For a store. Keep the largest pair accepted (two columns, or {@link #toString()}'s fixed-width
 * form, which sorts as the pair does) and refuse a write whose token is not greater or equal. A
 * store that keeps only the {@code long} (the zxid, {@code fencingToken()}) stays correct against
 * other processes and against Curator, but cannot refuse a paused earlier hold of the same node,
 * that is, another thread of the same process.
 *
 * @param zxid the creation zxid of the hold's node (the {@code long} {@code fencingToken()})
 * @param handOff the hold's number on that node, from 0
 */
public record FencingToken(long zxid, long handOff) implements Comparable<FencingToken> {

    /**
     * Checks the hand-off number.
     *
     * @param zxid the creation zxid of the hold's node
     * @param handOff the hold's number on that node, from 0
     * @throws IllegalArgumentException if {@code handOff} is negative
     */
    public FencingToken {
        if (handOff < 0) {
            throw new IllegalArgumentException("handOff must not be negative, was " + handOff);
        }
    }

    @Override
    public int compareTo(FencingToken other) {
        int byNode = Long.compare(zxid, other.zxid);
        return byNode != 0 ? byNode : Long.compare(handOff, other.handOff);
    }

    /**
     * {@return whether this token is strictly greater than {@code other}: a later hold}
     *
     * @param other an earlier token
     */
    public boolean isAfter(FencingToken other) {
        return compareTo(other) > 0;
    }

    /** {@return the pair as two 16-digit hexadecimal numbers, {@code <zxid>.<handOff>}: sorts as the pair does} */
    @Override
    public String toString() {
        return String.format("%016x.%016x", zxid, handOff);
    }
}

package dev.baton.test;

import dev.baton.framework.InterProcessLock;
import java.time.Duration;
import java.util.Objects;

/**
 * A lock whose holds carry a pair token (node zxid, hold number on the node), seen by the
 * {@link LockContract} through a {@code long} that keeps the pair's order: the zxid's low 40 bits
 * above 20 bits of hold number. The shared-ticket mode of Baton's locks needs it: there the
 * {@code long} token is the node's zxid, shared by the local holds on one node, and the strictly
 * growing token is the pair. The projection is exact on a test ensemble (epoch 1..255, fewer than
 * 2^32 transactions, fewer than 2^20 holds per node) and fails loudly otherwise.
 *
 * @param lock the lock under test
 * @param pairs the calling thread's pair, or null when the calling thread holds nothing through
 *     {@code lock} (another thread's or a lease's hold: only its zxid is known, so the projection
 *     takes hold number 0, the smallest pair on that node; a "later than" check gets no easier)
 */
public record PairTokenLock(InterProcessLock lock, ThreadPair pairs) implements InterProcessLock {
    /** The calling thread's pair token. */
    @FunctionalInterface
    public interface ThreadPair {
        /** {@return {zxid, hold number} of the calling thread's hold, or null when it holds nothing} */
        long[] ofCallingThread();
    }

    /**
     * Checks the parts.
     *
     * @param lock the lock under test
     * @param pairs the calling thread's pair
     */
    public PairTokenLock {
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(pairs, "pairs");
    }

    @Override
    public void acquire() throws InterruptedException {
        lock.acquire();
    }

    @Override
    public boolean acquire(Duration timeout) throws InterruptedException {
        return lock.acquire(timeout);
    }

    @Override
    public void release() {
        lock.release();
    }

    @Override
    public boolean isAcquiredInThisProcess() {
        return lock.isAcquiredInThisProcess();
    }

    @Override
    public long fencingToken() {
        long[] pair = pairs.ofCallingThread();
        // throws as the contract expects when nothing is held
        long zxid = pair == null ? lock.fencingToken() : pair[0];
        long number = pair == null ? 0 : pair[1];
        if (zxid >>> 40 != 0 || number >>> 20 != 0) {
            throw new AssertionError("token (" + zxid + ", " + number + ") does not fit the test's projection");
        }
        return zxid << 20 | number;
    }
}

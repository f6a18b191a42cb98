package dev.baton.recipes.election;

import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Told when a {@link LeaderLatch} gains and loses leadership, in order, on the latch's listener
 * executor (never on ZooKeeper's thread, never while the latch holds its lock). A listener that
 * throws is logged; the others still hear.
 *
 * <p>Calls alternate: {@code isLeader}, {@code notLeader}, {@code isLeader}, ... When a latch is
 * closed with {@link LeaderLatch.CloseMode#NOTIFY_LEADER} (the default), {@code notLeader()} has
 * returned before the latch's node is deleted, so before anybody else can be elected.
 */
public interface LeaderLatchListener {
    /** This latch leads now. */
    void isLeader();

    /** This latch no longer leads (stepped down, lost its node or session, or was closed). */
    void notLeader();

    /**
     * This latch leads now, in the term identified by {@code token} (the czxid of its node:
     * larger than every earlier leader's). Forwards to {@link #isLeader()} unless overridden.
     *
     * @param token the term's fencing token: larger than every earlier leader's
     */
    default void isLeader(long token) {
        isLeader();
    }

    /**
     * {@return a listener from two callbacks: {@code onLeader} receives the term's token}
     *
     * @param onLeader called with the term's token when the latch starts to lead
     * @param onNotLeader called when it stops leading
     */
    static LeaderLatchListener of(LongConsumer onLeader, Runnable onNotLeader) {
        Objects.requireNonNull(onLeader, "onLeader");
        Objects.requireNonNull(onNotLeader, "onNotLeader");
        return new LeaderLatchListener() {
            @Override
            public void isLeader() {
                // the token variant below is the one called
            }

            @Override
            public void isLeader(long token) {
                onLeader.accept(token);
            }

            @Override
            public void notLeader() {
                onNotLeader.run();
            }
        };
    }
}

package dev.baton.spring.leader;

/**
 * What the leader does in a guarded job ({@link BatonLeaderInitiator#runIfLeader(LeaderTask)}),
 * given the term's fencing token.
 *
 * <p>Why not {@code LongConsumer}: a scheduled job usually writes somewhere that can fail with a
 * checked exception ({@code IOException}, {@code InterruptedException}, {@code SQLException}). The
 * exception type is a parameter, so the guarded call throws exactly what the task throws and a
 * task that throws nothing checked needs no {@code catch}.
 *
 * @param <E> the checked exception the task may throw ({@code RuntimeException} for none)
 */
@FunctionalInterface
public interface LeaderTask<E extends Exception> {

    /**
     * Does the leader's work.
     *
     * @param token the term's fencing token: pass it with each write to what the work changes, and
     *     have that refuse tokens smaller than the largest it has seen
     * @throws E if the work fails
     */
    void run(long token) throws E;
}

package dev.baton.recipes.queue;

/**
 * Processes one item of a {@link DistributedQueue}. Called on the queue's executor, never on
 * ZooKeeper's event thread.
 *
 * <p>Returning normally means "done": with a lock path the item is removed only then. Throwing
 * means "failed": the item is offered again, up to the queue's
 * {@link QueueBuilder#maxDeliveryAttempts(int) delivery attempts}, then recorded as a
 * {@link DeadLetter} with the error. It may throw any exception because it is the caller's own
 * work, which has checked exceptions of its own, and every failure is handled the same way.
 */
@FunctionalInterface
public interface QueueConsumer<T> {
    /**
     * Processes {@code message}; returning means done, throwing means failed.
     *
     * @param message the item
     * @throws Exception anything the work throws: the item is offered again, or becomes a dead letter
     */
    void consumeMessage(T message) throws Exception;
}

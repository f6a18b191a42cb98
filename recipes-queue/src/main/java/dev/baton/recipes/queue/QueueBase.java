package dev.baton.recipes.queue;

import java.util.List;

/** What every {@link DistributedQueue} form offers besides its puts. */
public interface QueueBase<T> extends AutoCloseable {
    /**
     * Creates the queue's nodes and, if the queue has a consumer, starts consuming. Once.
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    void start() throws InterruptedException;

    /** {@return where the queue is in its life} */
    QueueState state();

    /**
     * {@return how many items wait (including ones locked by a consumer): one listing of the queue node and
     * one read per shard}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    long count() throws InterruptedException;

    /**
     * {@return the dead letters under the queue's dead-letter path, oldest first (at most 1,000)}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    List<DeadLetter> deadLetters() throws InterruptedException;

    /**
     * Stops consuming: no new item is taken, deliveries under way get the close timeout to
     * finish. The client is not closed.
     */
    @Override
    void close();
}

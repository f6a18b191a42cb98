package dev.baton.recipes.queue;

import java.util.List;

/** What every {@link DistributedQueue} form offers besides its puts. */
public interface QueueBase<T> extends AutoCloseable {
    /**
     * Starts the queue, once: if it has a consumer, a consumer thread makes the queue's nodes and
     * consumes. It does not wait for ZooKeeper: without a connection it returns at once, and the
     * consumer starts consuming (and a producer can put) when the client connects.
     *
     * @throws dev.baton.framework.ClientNotStartedException if the client was never started (start
     *     it, then this: the queue stays {@link QueueState#LATENT})
     * @throws InterruptedException declared for callers written when {@code start()} waited for
     *     the queue's nodes; it no longer waits, so it is not thrown
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
     * finish. A put waiting for room in a bounded queue fails at once with
     * {@link IllegalStateException}, as later puts do. The client is not closed.
     */
    @Override
    void close();
}

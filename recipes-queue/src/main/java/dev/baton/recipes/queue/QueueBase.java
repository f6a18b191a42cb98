package dev.baton.recipes.queue;

import java.util.List;

/** What every {@link DistributedQueue} form offers besides its puts. */
public interface QueueBase<T> extends AutoCloseable {
    /**
     * Starts the queue, once: if it has a consumer, a consumer thread makes the queue's nodes and
     * consumes. It does not wait for ZooKeeper: without a connection it returns at once, and the
     * consumer starts consuming (and a producer can put) when the client connects.
     */
    void start() throws InterruptedException;

    QueueState state();

    /** How many items wait (including ones locked by a consumer): one listing of the queue node and one read per shard. */
    long count() throws InterruptedException;

    /** The dead letters under the queue's dead-letter path, oldest first (at most 1,000). */
    List<DeadLetter> deadLetters() throws InterruptedException;

    /**
     * Stops consuming: no new item is taken, deliveries under way get the close timeout to
     * finish. The client is not closed.
     */
    @Override
    void close();
}

package dev.baton.recipes.queue;

import java.time.Duration;
import java.util.List;

/**
 * A FIFO queue of typed items on ZooKeeper, consumed by a {@link QueueConsumer} on an executor,
 * in any number of processes; built by {@link QueueBuilder#buildQueue()}.
 *
 * <p>Algorithm: a put creates a persistent sequential node {@code queue-<seq>} holding the item
 * in Curator's envelope, inside the newest shard (see {@link QueueLayout}); {@link #putMulti} puts
 * many in one ZooKeeper transaction. The consumer thread lists a batch of items in order once,
 * then works through it, listing again when it is done or (empty queue) when a watch fires.
 *
 * <p>Guarantees and caveats. Without a lock path (plain mode) an item is removed when it is
 * handed to the consumer: it goes to exactly one consumer, and is lost if that process dies
 * before the consumer finishes (at most {@code concurrency} items per process are at risk). With
 * a {@link QueueBuilder#lockPath(String) lock path} (guaranteed mode) an item is locked by an
 * ephemeral node and removed, together with its lock, only after the consumer returned normally;
 * if the process dies (its session ends), another consumer gets the item; while its session
 * lives, no other consumer does. A consumer paused for longer than the session timeout may still
 * run an item that another consumer then runs too; only one of them removes it, so each item is
 * completed exactly once and executed at least once. In both modes a consumer that throws is
 * retried up to {@link QueueBuilder#maxDeliveryAttempts(int)} times, then the item becomes a
 * {@link DeadLetter}; lost replies neither duplicate a put nor lose a take (see
 * {@link SimpleDistributedQueue}). One process's items are consumed in the order it put them
 * when one consumer thread consumes them.
 *
 * <pre>{@code
 * DistributedQueue<String> queue = QueueBuilder.builder(client, this::process, serializer, "/jobs")
 *     .lockPath("/jobs-locks").buildQueue();
 * queue.start();
 * queue.put("resize 42");
 * queue.putMulti(List.of("a", "b", "c"));   // one transaction
 * }</pre>
 */
public final class DistributedQueue<T> extends QueueFront<T> {
    DistributedQueue(QueueEngine<T> engine) {
        super(engine);
    }

    /**
     * Adds {@code item}; with maxItems, waits up to the put timeout for room.
     *
     * @param item the item
     * @throws QueueFullException if there was no room within the put timeout
     * @throws IllegalStateException if the queue is not started, or is closed (also while the put waits for room)
     * @throws QueueSerializationException if the serializer failed
     * @throws dev.baton.framework.DataTooLargeException if the item is larger than the servers accept
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void put(T item) throws InterruptedException {
        engine.putOrFail(one(item), "");
    }

    /**
     * Adds {@code item}, waiting up to {@code maxWait} for room; false if there was none.
     *
     * @param item the item
     * @param maxWait how long to wait for room in a bounded queue
     * @return whether the item was put
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean put(T item, Duration maxWait) throws InterruptedException {
        return engine.put(one(item), "", maxWait);
    }

    /**
     * Adds {@code items} (1 to 5,000) in one ZooKeeper transaction: all of them or none, in this
     * order.
     *
     * @param items the items, 1 to 5,000
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void putMulti(List<T> items) throws InterruptedException {
        engine.putOrFail(items, "");
    }

    /**
     * {@link #putMulti(List)}, waiting up to {@code maxWait} for room; false if there was none.
     *
     * @param items the items, 1 to 5,000
     * @param maxWait how long to wait for room in a bounded queue
     * @return whether the items were put
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean putMulti(List<T> items, Duration maxWait) throws InterruptedException {
        return engine.put(items, "", maxWait);
    }
}

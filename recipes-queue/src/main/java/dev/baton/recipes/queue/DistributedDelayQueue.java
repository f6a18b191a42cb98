package dev.baton.recipes.queue;

import java.time.Duration;
import java.util.List;

/**
 * A {@link DistributedQueue} whose items are delivered no earlier than a given time, earliest
 * first; built by {@link QueueBuilder#buildDelayQueue()}. Nodes are named as Curator names them:
 * {@code queue-|<hex epoch millis>|<seq>}.
 *
 * <p>Guarantees and caveats: as {@link DistributedQueue}. An item is never handed to a consumer
 * before its time by the consumer's clock (clocks of producers and consumers should agree); it is
 * delivered as soon after as the consumer gets to it. An item put while a consumer waits for a
 * later one is seen within ten times the consumer's last listing time. Every shard is listed, as
 * for the priority queue.
 */
public final class DistributedDelayQueue<T> extends QueueFront<T> {
    DistributedDelayQueue(QueueEngine<T> engine) {
        super(engine);
    }

    /**
     * Adds {@code item}, to be delivered at or after {@code deliverAtEpochMillis} (positive).
     *
     * @param item the item
     * @param deliverAtEpochMillis the earliest time to deliver it, in milliseconds since the epoch
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void put(T item, long deliverAtEpochMillis) throws InterruptedException {
        engine.putOrFail(one(item), part(deliverAtEpochMillis));
    }

    /**
     * {@link #put(Object, long)}, waiting up to {@code maxWait} for room; false if there was none.
     *
     * @param item the item
     * @param deliverAtEpochMillis the earliest time to deliver it, in milliseconds since the epoch
     * @param maxWait how long to wait for room in a bounded queue
     * @return whether the item was put
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean put(T item, long deliverAtEpochMillis, Duration maxWait) throws InterruptedException {
        return engine.put(one(item), part(deliverAtEpochMillis), maxWait);
    }

    /**
     * Adds {@code items}, all due at {@code deliverAtEpochMillis}, in one transaction.
     *
     * @param items the items, 1 to 5,000
     * @param deliverAtEpochMillis the earliest time to deliver them, in milliseconds since the epoch
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void putMulti(List<T> items, long deliverAtEpochMillis) throws InterruptedException {
        engine.putOrFail(items, part(deliverAtEpochMillis));
    }

    private static String part(long deliverAtEpochMillis) {
        if (deliverAtEpochMillis <= 0) {
            throw new IllegalArgumentException("deliverAtEpochMillis must be a positive epoch time in milliseconds, was "
                + deliverAtEpochMillis);
        }
        return ItemNames.delayPart(deliverAtEpochMillis);
    }
}

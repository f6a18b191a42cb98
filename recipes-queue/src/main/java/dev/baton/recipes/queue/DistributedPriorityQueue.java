package dev.baton.recipes.queue;

import java.time.Duration;
import java.util.List;

/**
 * A {@link DistributedQueue} whose items come out lowest priority number first (FIFO within a
 * priority); built by {@link QueueBuilder#buildPriorityQueue()}. Nodes are named as Curator names
 * them: {@code queue-<1 for >= 0, 0 for negative><8 hex digits><seq>}.
 *
 * <p>Guarantees and caveats: as {@link DistributedQueue}. Order is by priority among the items a
 * consumer listed; an item put while a consumer works through its listing is seen once a tenth of
 * that listing is done (or after ten times the time the listing took), not at once. Every shard is
 * listed, so a consumer holds the names of all waiting items in memory (about 100 bytes each).
 */
public final class DistributedPriorityQueue<T> extends QueueFront<T> {
    DistributedPriorityQueue(QueueEngine<T> engine) {
        super(engine);
    }

    /**
     * Adds {@code item} with {@code priority} (lower comes out first); waits for room as {@link
     * DistributedQueue#put}.
     *
     * @param item the item
     * @param priority its priority: lower numbers come out first
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void put(T item, int priority) throws InterruptedException {
        engine.putOrFail(one(item), ItemNames.priorityPart(priority));
    }

    /**
     * Adds {@code item} with {@code priority}, waiting up to {@code maxWait} for room; false if there was
     * none.
     *
     * @param item the item
     * @param priority its priority: lower numbers come out first
     * @param maxWait how long to wait for room in a bounded queue
     * @return whether the item was put
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean put(T item, int priority, Duration maxWait) throws InterruptedException {
        return engine.put(one(item), ItemNames.priorityPart(priority), maxWait);
    }

    /**
     * Adds {@code items}, all with {@code priority}, in one transaction.
     *
     * @param items the items, 1 to 5,000
     * @param priority their priority: lower numbers come out first
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void putMulti(List<T> items, int priority) throws InterruptedException {
        engine.putOrFail(items, ItemNames.priorityPart(priority));
    }
}

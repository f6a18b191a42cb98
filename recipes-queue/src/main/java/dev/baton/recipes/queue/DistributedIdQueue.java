package dev.baton.recipes.queue;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A FIFO {@link DistributedQueue} whose items carry an id, so they can be removed before they are
 * consumed; built by {@link QueueBuilder#buildIdQueue()}. Nodes are named as Curator names them:
 * {@code queue-|<id>|<seq>} ('/' and '|' in an id become '_').
 *
 * <p>Guarantees and caveats: as {@link DistributedQueue}. {@link #remove} lists every shard; an
 * item a consumer already took (or, with a lock path, holds) is not removed.
 */
public final class DistributedIdQueue<T> extends QueueFront<T> {
    DistributedIdQueue(QueueEngine<T> engine) {
        super(engine);
    }

    /**
     * Adds {@code item} under {@code id} (not empty; several items may share one).
     *
     * @param item the item
     * @param id the id to remove it by
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void put(T item, String id) throws InterruptedException {
        engine.putOrFail(one(item), ItemNames.idPart(check(id)));
    }

    /**
     * {@link #put(Object, String)}, waiting up to {@code maxWait} for room; false if there was none.
     *
     * @param item the item
     * @param id the id to remove it by
     * @param maxWait how long to wait for room in a bounded queue
     * @return whether the item was put
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean put(T item, String id, Duration maxWait) throws InterruptedException {
        return engine.put(one(item), ItemNames.idPart(check(id)), maxWait);
    }

    /**
     * Removes every waiting item with {@code id}; returns how many this call removed.
     *
     * @param id the id the items were put with
     * @return how many items this call removed
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public int remove(String id) throws InterruptedException {
        return engine.removeById(check(id));
    }

    private static String check(String id) {
        Objects.requireNonNull(id, "id");
        if (id.isEmpty()) {
            throw new IllegalArgumentException("id must not be empty");
        }
        return id;
    }
}

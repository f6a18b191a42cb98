package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Blocking;
import dev.baton.framework.NoNodeException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;

/**
 * Which shard this process's producers put into: the highest shard of the queue, and a newer one
 * once it is full or gone. Shard names are sequential, so "newer" always sorts after every older
 * shard, and a producer never moves back (that is what keeps each producer's items in order).
 */
final class ProducerShards {
    @FunctionalInterface
    interface Lister {
        List<String> children(String path, Watcher watcher) throws InterruptedException;
    }

    @FunctionalInterface
    interface PathMaker {
        void ensurePath() throws InterruptedException;
    }

    private final BatonClient client;
    private final String path;
    private final Lister lister;
    private final PathMaker pathMaker;
    /**
     * One move at a time, so that producers who find no shard make one between them, not one each.
     * Held across the listing and the create, whose replies complete on the client's fork-join pool;
     * a lock rather than a monitor, taken through {@link Blocking#lock}, so that puts waiting for it
     * in continuations on that pool leave it threads for those replies.
     */
    private final ReentrantLock lock = new ReentrantLock();
    private volatile String current;

    ProducerShards(BatonClient client, String path, Lister lister, PathMaker pathMaker) {
        this.client = client;
        this.path = path;
        this.lister = lister;
        this.pathMaker = pathMaker;
    }

    /** The shard to put into (its path). */
    String current() throws InterruptedException {
        String shard = current;
        return shard != null ? shard : movePast(null);
    }

    /**
     * Moves past shard {@code stale} (null: none chosen yet) to the highest shard above it,
     * creating a new one if there is none. Returns the shard to use.
     */
    String movePast(String stale) throws InterruptedException {
        Blocking.lock(lock);
        try {
            String now = current;
            if (now != null && !now.equals(stale)) {
                return now; // another thread moved on already
            }
            List<String> shards = new ArrayList<>();
            for (String name : lister.children(path, null)) {
                if (ItemNames.shardSequence(name) >= 0) {
                    shards.add(name);
                }
            }
            String highest = shards.stream().max(Comparator.comparingLong(ItemNames::shardSequence)).orElse(null);
            long staleSeq = stale == null ? -1 : ItemNames.shardSequence(stale.substring(stale.lastIndexOf('/') + 1));
            String next = highest != null && ItemNames.shardSequence(highest) > staleSeq ? path + "/" + highest : create();
            current = next;
            return next;
        } finally {
            lock.unlock();
        }
    }

    private String create() throws InterruptedException {
        try {
            return client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(path + "/" + ItemNames.SHARD_PREFIX);
        } catch (NoNodeException e) {
            pathMaker.ensurePath();
            return client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(path + "/" + ItemNames.SHARD_PREFIX);
        }
    }
}

package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.DataTooLargeException;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.Ticker;
import dev.baton.framework.TransactionResult;
import dev.baton.recipes.queue.Receipts.Commit;
import dev.baton.recipes.queue.Receipts.Receipt;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * A queue's nodes: where items are put, how they are listed in order, and how one is taken.
 *
 * <p>Layout. In the sharded layout (the default) items live in shard nodes,
 * {@code <queue>/shard-<seq>/<item>}: a producer puts into the highest shard it knows and moves
 * on to a newer one once its items' sequence numbers there pass {@link #SHARD_ROLL_SEQUENCE}, so
 * no shard holds more than about {@code SHARD_ROLL_SEQUENCE} plus one batch of items and no
 * listing approaches ZooKeeper's 1 MB reply limit. Shard names are sequential, so a new shard
 * always sorts after every older one, and a producer only ever moves to higher shards: with
 * consumers taking from the lowest shard first, one producer's items are handed out in the order
 * it put them. A consumer deletes a shard it found empty unless it is the highest one (a put
 * racing with that delete fails on the missing shard and moves on). In the flat layout (Curator's)
 * items are children of the queue path itself; items found there are always read, whatever the
 * layout, so items put by Curator are consumed too.
 *
 * <p>Every put and take is a receipt-guarded transaction (see {@link Receipts}): a lost reply
 * neither duplicates a put nor makes a take look like someone else's.
 */
final class QueueStore {
    /** A producer moves to a new shard once an item's sequence number in its shard reaches this. */
    static final int SHARD_ROLL_SEQUENCE = QueueLayout.SHARD_ROLL_SEQUENCE;
    /** A FIFO consumer lists shards until its batch holds at least this many items. */
    public static final int FIFO_BATCH_TARGET = 2_000;
    private static final byte[] PUT_NOTE = "put".getBytes(StandardCharsets.UTF_8);
    private static final Comparator<String> BY_SHARD = Comparator.comparingLong(ItemNames::shardSequence);

    private final BatonClient client;
    private final String path;
    private final String prefix;
    private final ItemOrder order;
    private final boolean flat;
    private final Receipts receipts;
    private final ProducerShards shards;
    private final Takes takes;
    /** The depth last seen, less what this process took since; -1 until a listing or a count. */
    private final AtomicLong depth = new AtomicLong(-1);

    public QueueStore(BatonClient client, String path, String prefix, ItemOrder order, boolean flat, Receipts receipts) {
        this.client = client;
        this.path = path;
        this.prefix = prefix;
        this.order = order;
        this.flat = flat;
        this.receipts = receipts;
        this.shards = new ProducerShards(client, path, this::children, this::ensurePath);
        this.takes = new Takes(client, receipts);
    }

    public String path() {
        return path;
    }

    /** {@return the client's clock, for the durations the consumer loop measures} */
    public Ticker ticker() {
        return client.ticker();
    }

    public String prefix() {
        return prefix;
    }

    public ItemOrder order() {
        return order;
    }

    /** {@return what this queue reports its events to: its client's observer} */
    public BatonObserver observer() {
        return client.observer();
    }

    public Receipts receipts() {
        return receipts;
    }

    /** Creates the queue's node (a persistent node; missing parents as containers). */
    public void ensurePath() throws InterruptedException {
        try {
            client.create().creatingParentContainersIfNeeded().forPath(path);
        } catch (NodeExistsException e) {
            // there already
        }
    }

    /**
     * Puts {@code datas} as nodes named {@code <prefix><middle><seq>}, all or none, in one
     * transaction.
     *
     * @throws QueueOutcomeUnknownException if the session ended while the reply was lost
     */
    public void put(List<byte[]> datas, String middle) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            String parent = flat ? path : shards.current();
            String itemPath = parent + "/" + prefix + middle;
            Receipt r = receipts.borrow();
            Commit c;
            try {
                c = receipts.commit(r, PUT_NOTE, tx -> datas.forEach(d -> tx.create(itemPath, d, CreateMode.PERSISTENT_SEQUENTIAL)));
            } catch (DataTooLargeException tooLarge) {
                receipts.release(r); // refused before anything was sent: the receipt is unchanged, keep it for the next put
                throw tooLarge;
            }
            switch (c.outcome()) {
                case APPLIED -> {
                    receipts.release(r);
                    client.observer().queueItemsPut(path, datas.size());
                    if (!flat && c.results() != null && !c.results().isEmpty()) {
                        rollIfFull(parent, c.results().get(c.results().size() - 1));
                    }
                    return;
                }
                case REJECTED -> {
                    receipts.release(r);
                    // the shard was emptied and deleted (or the queue node removed): move on, a few times at most
                    if (c.code() != KeeperException.Code.NONODE || attempt >= 3) {
                        throw c.error();
                    }
                    if (flat) {
                        ensurePath();
                    } else {
                        shards.movePast(parent);
                    }
                }
                case NOT_APPLIED -> {
                    receipts.release(r);
                    throw c.error();
                }
                case RECEIPT_LOST, UNKNOWN -> {
                    receipts.discard(r);
                    throw new QueueOutcomeUnknownException("put of " + datas.size() + " item(s) into " + parent
                        + ": the reply was lost and the session ended before the outcome could be read; the items may or may not be queued",
                        itemPath, List.of(), c.error());
                }
            }
        }
    }

    private void rollIfFull(String shard, TransactionResult last) throws InterruptedException {
        if (ItemNames.sequence(last.path()) >= SHARD_ROLL_SEQUENCE) {
            shards.movePast(shard);
        }
    }

    /**
     * The items, in order. Priority and delay queues list every shard (an item anywhere may come
     * first); FIFO and id queues list from the lowest shard until they hold
     * {@link #FIFO_BATCH_TARGET} items. {@code watcher}, if given, is left on the queue node and
     * on the highest shard when that one was listed, so it fires when an item arrives. Empty
     * shards other than the highest are deleted on the way.
     */
    public List<ItemRef> list(Watcher watcher) throws InterruptedException {
        List<ItemRef> items = list(watcher, order.newItemsMayJumpAhead());
        depthSeen(items.size()); // FIFO listings stop near FIFO_BATCH_TARGET: at least this many
        return items;
    }

    /** Every item of every shard, in order (for removing by id). */
    public List<ItemRef> listEverything() throws InterruptedException {
        return list(null, true);
    }

    private List<ItemRef> list(Watcher watcher, boolean all) throws InterruptedException {
        List<ItemRef> items = new ArrayList<>();
        List<String> shards = new ArrayList<>();
        for (String name : children(path, watcher)) {
            if (ItemNames.shardSequence(name) >= 0) {
                shards.add(name);
            } else {
                ItemKey key = ItemNames.key(order, prefix, name, -1);
                if (key != null) {
                    items.add(new ItemRef(path + "/" + name, name, name, key));
                }
            }
        }
        shards.sort(BY_SHARD);
        List<CompletableFuture<List<String>>> listings = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            boolean highest = i == shards.size() - 1;
            listings.add(childrenAsync(path + "/" + shards.get(i), highest ? watcher : null));
            if (!all) {
                int before = items.size();
                addShardItems(shards.get(i), Futures.await(listings.get(i)), highest, items);
                if (items.size() >= FIFO_BATCH_TARGET && items.size() > before) {
                    break;
                }
            }
        }
        if (all) {
            for (int i = 0; i < listings.size(); i++) {
                addShardItems(shards.get(i), Futures.await(listings.get(i)), i == shards.size() - 1, items);
            }
        }
        items.sort(Comparator.comparing(ItemRef::key));
        return items;
    }

    private void addShardItems(String shard, List<String> names, boolean highest, List<ItemRef> items) {
        if (names.isEmpty() && !highest) {
            client.delete().quietly().forPathAsync(path + "/" + shard).exceptionally(e -> null);
            return;
        }
        long shardSeq = ItemNames.shardSequence(shard);
        for (String name : names) {
            ItemKey key = ItemNames.key(order, prefix, name, shardSeq);
            if (key != null) {
                items.add(new ItemRef(path + "/" + shard + "/" + name, name, shard + "-" + name, key));
            }
        }
    }

    /** How many items wait: the flat ones plus every shard's children (one stat per shard, no listing). */
    public long count() throws InterruptedException {
        long count = 0;
        List<CompletableFuture<Stat>> stats = new ArrayList<>();
        for (String name : children(path, null)) {
            if (ItemNames.shardSequence(name) >= 0) {
                stats.add(client.checkExists().forPathAsync(path + "/" + name));
            } else if (ItemNames.key(order, prefix, name, -1) != null) {
                count++;
            }
        }
        for (CompletableFuture<Stat> stat : stats) {
            Stat s = Futures.await(stat);
            count += s == null ? 0 : s.getNumChildren();
        }
        depthSeen(count);
        return count;
    }

    /** The item's data and stat, or null if it is gone. */
    public NodeData read(ItemRef ref) throws InterruptedException {
        try {
            return client.getData().forPathWithStat(ref.path());
        } catch (NoNodeException e) {
            return null;
        }
    }

    /** Reads the item asynchronously; completes with null if it is gone. */
    public CompletableFuture<NodeData> readAsync(ItemRef ref) {
        return Futures.nullIfNoNode(client.getData().forPathWithStatAsync(ref.path()));
    }

    /**
     * Removes the item read as {@code data}; returns its data, or null if another consumer took
     * it first.
     *
     * @throws QueueOutcomeUnknownException if the reply was lost and the session ended before the
     *     outcome could be read (the exception carries the item)
     */
    public byte[] take(ItemRef ref, NodeData data) throws InterruptedException {
        List<Taken> taken = takeAll(List.of(ref), List.of(data));
        return taken.isEmpty() ? null : taken.get(0).data();
    }

    /** Items whose read found them still there, and what it read, in order: what {@link #takeAll} takes. */
    public record Read(List<ItemRef> refs, List<NodeData> datas) {
        public boolean isEmpty() {
            return refs.isEmpty();
        }
    }

    /** Waits for {@code reads} (of {@code refs}, same order) and keeps the items they found. */
    public static Read stillThere(List<ItemRef> refs, List<CompletableFuture<NodeData>> reads) throws InterruptedException {
        List<ItemRef> present = new ArrayList<>(refs.size());
        List<NodeData> datas = new ArrayList<>(refs.size());
        for (int i = 0; i < refs.size(); i++) {
            NodeData data = Futures.await(reads.get(i));
            if (data != null) {
                present.add(refs.get(i));
                datas.add(data);
            }
        }
        return new Read(present, datas);
    }

    /** {@link Takes#takeAll}: removes the items read as {@code datas} in one transaction. */
    public List<Taken> takeAll(List<ItemRef> refs, List<NodeData> datas) throws InterruptedException {
        List<Taken> taken = takes.takeAll(refs, datas);
        if (!taken.isEmpty()) {
            tookSeen(taken.size());
        }
        return taken;
    }

    private void depthSeen(long items) {
        depth.set(items);
        client.observer().queueDepthSeen(path, items);
    }

    /**
     * Reports {@code count} items taken by this process and the depth it last saw, less them: a
     * consumer works through one listing for many takes, and the depth it reports must fall as it
     * does, not stay at the listing's size until the next one.
     */
    void tookSeen(int count) {
        client.observer().queueItemsTaken(path, count);
        long left = depth.updateAndGet(d -> d < 0 ? d : Math.max(0, d - count));
        if (left >= 0) {
            client.observer().queueDepthSeen(path, left);
        }
    }

    List<String> children(String parent, Watcher watcher) throws InterruptedException {
        return Futures.await(childrenAsync(parent, watcher));
    }

    private CompletableFuture<List<String>> childrenAsync(String parent, Watcher watcher) {
        var builder = client.getChildren();
        if (watcher != null) {
            builder = builder.usingWatcher(watcher);
        }
        return builder.forPathAsync(parent).exceptionallyCompose(e -> {
            Throwable cause = Failures.unwrap(e);
            return cause instanceof NoNodeException
                ? CompletableFuture.completedFuture(List.of())
                : CompletableFuture.failedFuture(cause);
        });
    }
}

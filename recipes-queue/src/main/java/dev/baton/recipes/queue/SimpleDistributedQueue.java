package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Blocking;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.Deadline;
import dev.baton.framework.NodeData;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.zookeeper.Watcher;

/**
 * A queue of byte arrays on ZooKeeper, FIFO, that any number of processes offer to and take from
 * (the ZooKeeper "queue" recipe, with Curator's {@code qn-<seq>} item names).
 *
 * <p>Algorithm: {@link #offer} creates a persistent sequential node {@code qn-<seq>} holding the
 * item, inside the newest shard node of the queue (see {@link QueueLayout}). A taker lists the
 * queue once, keeps the sorted names as a batch, and works through it: read the item, then delete
 * it in a transaction guarded by a receipt (below). It lists again only when the batch is used up,
 * so a take costs one read and one write however many items wait; when the queue is empty it
 * leaves watches and sleeps until an item arrives.
 *
 * <p>Guarantees and caveats:
 * <ul>
 *   <li>An item is taken by at most one caller: the take that deletes its node. Items offered by
 *       one producer are taken in the order offered.</li>
 *   <li>A lost reply does not duplicate an offer, nor make a take give up an item it removed:
 *       each write carries a receipt (an ephemeral node of this client) whose version tells,
 *       after a connection loss, whether the write happened. If it certainly did not, the call
 *       fails with the framework's exception and the queue is unchanged.</li>
 *   <li>One case ZooKeeper cannot resolve: the reply is lost and the session expires before the
 *       client reconnects. The call then throws {@link QueueOutcomeUnknownException}; for a take
 *       it carries the item, which this call may or may not have removed. Nothing is lost
 *       silently and nothing is handed out twice without the caller deciding so.</li>
 *   <li>Once {@link #take} returns, the item is gone from ZooKeeper: if the caller dies before
 *       processing it, it is lost. For processing that must survive a crash use
 *       {@link DistributedQueue} with a lock path.</li>
 *   <li>Items directly under the path (Curator's or ZooKeeper's layout) are taken too, ahead of
 *       sharded ones; foreign node names are ignored.</li>
 * </ul>
 *
 * <pre>{@code
 * SimpleDistributedQueue queue = new SimpleDistributedQueue(client, "/jobs");
 * queue.offer("resize 42".getBytes(UTF_8));
 * byte[] job = queue.poll(Duration.ofSeconds(5));   // null if nothing came within 5 s
 * }</pre>
 */
public final class SimpleDistributedQueue {
    private static final String PREFIX = "qn-";
    /** A waiting taker looks again this often even without a watch firing. */
    private static final Duration RECHECK = Duration.ofSeconds(10);
    /** Takes read this many items ahead, so a take costs one write round trip rather than a read and a write. */
    private static final int READ_AHEAD = 8;
    /** Most items one {@link #pollMulti} removes (one transaction deleting them stays far below ZooKeeper's packet limit). */
    public static final int MAX_POLL_MULTI = 1_000;

    private static final class Pending {
        final ItemRef ref;
        CompletableFuture<NodeData> read;

        Pending(ItemRef ref) {
            this.ref = ref;
        }
    }

    private final BatonClient client;
    private final QueueStore store;
    /** Listed items not yet tried, with the reads started ahead for the first few. */
    private final ArrayDeque<Pending> batch = new ArrayDeque<>();
    /**
     * Guards {@link #batch}; held across a listing. A lock rather than a monitor, taken through
     * {@link Blocking#lock}: takers waiting for it in continuations on the client's fork-join pool
     * must not hold the pool's threads while the listing's reply waits for one of them.
     */
    private final ReentrantLock batchLock = new ReentrantLock();
    private volatile boolean ensured;

    /**
     * A queue at {@code path} in the sharded layout.
     *
     * @param client the client whose session the queue's requests use
     * @param path the queue's folder, such as {@code /app/jobs}
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public SimpleDistributedQueue(BatonClient client, String path) {
        this(client, path, QueueLayout.SHARDED);
    }

    /**
     * A queue at {@code path}; {@code layout} says where offers put items (takes read both).
     *
     * @param client the client whose session the queue's requests use
     * @param path the queue's folder, such as {@code /app/jobs}
     * @param layout where offers put items: {@link QueueLayout#FLAT} where Curator's consumers see them
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public SimpleDistributedQueue(BatonClient client, String path, QueueLayout layout) {
        this.client = Objects.requireNonNull(client, "client");
        ZPaths.validateRecipePath("SimpleDistributedQueue", path);
        Objects.requireNonNull(layout, "layout");
        this.store = new QueueStore(client, path, PREFIX, ItemOrder.FIFO, layout == QueueLayout.FLAT,
            Receipts.shared(client, path + "/receipts"));
    }

    /**
     * Adds {@code data} at the tail. Returns true (the signature is the ZooKeeper recipe's).
     *
     * @param data the item
     * @return true
     * @throws dev.baton.framework.DataTooLargeException if the item is larger than the servers accept
     * @throws QueueOutcomeUnknownException if the session ended while the reply was lost
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public boolean offer(byte[] data) throws InterruptedException {
        Objects.requireNonNull(data, "data: a queue item cannot be null (use an empty array for an empty item)");
        ensurePath();
        store.put(List.of(data), "");
        return true;
    }

    /**
     * Removes and returns the head, or null if the queue is empty.
     *
     * @return the head, or null if the queue is empty
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    public byte[] poll() throws InterruptedException {
        ensurePath();
        return first(takeSome(1, null));
    }

    /**
     * Removes and returns the head, waiting for one as long as it takes.
     *
     * @return the head
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public byte[] take() throws InterruptedException {
        return first(await(1, Deadline.none()));
    }

    /**
     * Removes and returns the head, waiting up to {@code timeout} for one; null if none came.
     *
     * @param timeout how long to wait at most
     * @return the head, or null if none came in time
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public byte[] poll(Duration timeout) throws InterruptedException {
        return first(await(1, deadline(timeout)));
    }

    /**
     * Removes up to {@code max} items from the head in one transaction and returns them in queue
     * order; an empty list if the queue is empty. It costs one write for all of them (plus one for
     * each item another consumer takes in between), where {@code max} polls cost {@code max}
     * writes: use it when a consumer can work on items in batches. Like {@link #poll()}, the items
     * are gone from ZooKeeper when it returns, so a caller that dies before processing them loses
     * all of them.
     *
     * @param max 1 to {@link #MAX_POLL_MULTI}
     * @return the items, in queue order; empty if the queue is empty
     * @throws QueueOutcomeUnknownException if the session ended while the reply was lost; it
     *     carries every item of that transaction ({@link QueueOutcomeUnknownException#items()})
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    public List<byte[]> pollMulti(int max) throws InterruptedException {
        checkMax(max);
        ensurePath();
        return takeSome(max, null);
    }

    /**
     * {@link #pollMulti(int)}, waiting up to {@code timeout} for at least one item; an empty list
     * if none came.
     *
     * @param max 1 to {@link #MAX_POLL_MULTI}
     * @param timeout how long to wait at most
     * @return the items, in queue order; empty if none came in time
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public List<byte[]> pollMulti(int max, Duration timeout) throws InterruptedException {
        checkMax(max);
        return await(max, deadline(timeout));
    }

    private static void checkMax(int max) {
        if (max < 1 || max > MAX_POLL_MULTI) {
            throw new IllegalArgumentException("max must be 1 to " + MAX_POLL_MULTI + " items, was " + max);
        }
    }

    private Deadline deadline(Duration timeout) {
        return Deadline.afterNonNegative(timeout, client.ticker());
    }

    private static byte[] first(List<byte[]> items) {
        return items.isEmpty() ? null : items.get(0);
    }

    /**
     * {@return how many items wait, in every shard (each shard counted from its stat, so this costs one
     * listing of the shards and one read per shard, not a listing of every item)}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    public long size() throws InterruptedException {
        ensurePath();
        return store.count();
    }

    /**
     * Returns the head without removing it, or null if the queue is empty.
     *
     * @return the head, or null if the queue is empty
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    public byte[] peek() throws InterruptedException {
        ensurePath();
        boolean listed = false;
        while (true) {
            Pending head;
            Blocking.lock(batchLock);
            try {
                head = batch.peekFirst();
                if (head == null && !listed) {
                    refill(null);
                    listed = true;
                    head = batch.peekFirst();
                }
                if (head == null) {
                    return null;
                }
            } finally {
                batchLock.unlock();
            }
            NodeData data = store.read(head.ref);
            if (data != null) {
                return data.data();
            }
            Blocking.lock(batchLock);
            try {
                batch.remove(head);
            } finally {
                batchLock.unlock();
            }
        }
    }

    /**
     * Curator's name: the head without removing it, like {@link #peek()}, but an empty queue
     * throws instead of returning null.
     *
     * @return the head
     * @throws NoSuchElementException if the queue is empty
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    public byte[] element() throws InterruptedException {
        byte[] head = peek();
        if (head == null) {
            throw new NoSuchElementException("queue " + store.path() + " is empty");
        }
        return head;
    }

    /**
     * Curator's name: removes and returns the head, like {@link #poll()}, but an empty queue
     * throws instead of returning null.
     *
     * @return the head
     * @throws NoSuchElementException if the queue is empty
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    public byte[] remove() throws InterruptedException {
        byte[] head = poll();
        if (head == null) {
            throw new NoSuchElementException("queue " + store.path() + " is empty");
        }
        return head;
    }

    private List<byte[]> await(int max, Deadline deadline) throws InterruptedException {
        long start = client.ticker().read();
        List<byte[]> items = awaitItems(max, deadline);
        client.observer().queueTakeWaited(store.path(), client.ticker().read() - start, !items.isEmpty());
        return items;
    }

    private List<byte[]> awaitItems(int max, Deadline deadline) throws InterruptedException {
        ensurePath();
        // A signal of this wait's own: the client registers a listener by identity and removes every registration of
        // it at once, so a signal shared by two waits would be unregistered for both when the first one ends, and the
        // other would no longer be woken by a reconnect or by the client's close.
        ChangeSignal signal = new ChangeSignal();
        client.addConnectionStateListener(signal);
        try {
            while (true) {
                long seen = signal.generation();
                List<byte[]> items = takeSome(max, signal);
                if (!items.isEmpty()) {
                    return items;
                }
                if (deadline.hasPassed()) {
                    return items;
                }
                // managed: a take may run in a continuation on the client's fork-join pool
                signal.awaitChange(seen, deadline.orEarlier(Deadline.after(RECHECK)));
            }
        } finally {
            client.removeConnectionStateListener(signal);
        }
    }

    /**
     * Takes up to {@code max} items from the front of the batch that are still there, in one
     * transaction, listing again when the batch runs out; empty when a fresh listing finds
     * nothing. A listing with {@code watcher} leaves watches for new items.
     */
    private List<byte[]> takeSome(int max, Watcher watcher) throws InterruptedException {
        while (true) {
            List<Pending> picked = new ArrayList<>(Math.min(max, READ_AHEAD));
            Blocking.lock(batchLock);
            try {
                if (batch.isEmpty()) {
                    refill(watcher);
                    if (batch.isEmpty()) {
                        return List.of();
                    }
                }
                while (picked.size() < max && !batch.isEmpty()) {
                    Pending next = batch.pollFirst();
                    if (next.read == null) {
                        next.read = store.readAsync(next.ref);
                    }
                    picked.add(next);
                }
                readAhead();
            } finally {
                batchLock.unlock();
            }
            QueueStore.Read read = QueueStore.stillThere(picked.stream().map(p -> p.ref).toList(),
                picked.stream().map(p -> p.read).toList());
            if (!read.isEmpty()) {
                List<Taken> taken = store.takeAll(read.refs(), read.datas());
                if (!taken.isEmpty()) {
                    return taken.stream().map(Taken::data).toList();
                }
            }
        }
    }

    /** Under the batch lock: lists again. */
    private void refill(Watcher watcher) throws InterruptedException {
        for (ItemRef ref : store.list(watcher)) {
            batch.addLast(new Pending(ref));
        }
    }

    /** Under the batch lock: starts reading the next few items. */
    private void readAhead() {
        int n = 0;
        for (Pending p : batch) {
            if (n++ >= READ_AHEAD) {
                break;
            }
            if (p.read == null) {
                p.read = store.readAsync(p.ref);
            }
        }
    }

    private void ensurePath() throws InterruptedException {
        if (!ensured) {
            store.ensurePath();
            ensured = true;
        }
    }
}

package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.Timeouts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every DistributedQueue form shares: its life cycle, puts (with the maxItems bound),
 * and the consumer thread. The public classes only add their own put signatures.
 */
final class QueueEngine<T> {
    private static final Logger LOG = LoggerFactory.getLogger(QueueEngine.class);
    /** Largest putMulti: its transaction's reply (a path and stat per item) stays far below 1 MB. */
    public static final int MAX_PUT_MULTI = 5_000;
    /** Prefix of item names (Curator's). */
    static final String PREFIX = "queue-";
    /** The queue's folder of receipts: {@code <path>/receipts}. */
    static final String RECEIPTS = "receipts";
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final QueueSettings<T> settings;
    private final QueueStore store;
    private final DeadLetters deadLetters;
    private final Claims claims;
    private final ChangeSignal signal = new ChangeSignal();
    private final AtomicReference<QueueState> state = new AtomicReference<>(QueueState.LATENT);
    /** The signals of puts waiting for room, so that close() wakes them instead of leaving them to their timeout. */
    private final Set<ChangeSignal> waitingPuts = ConcurrentHashMap.newKeySet();
    private ExecutorService ownExecutor;
    private ConsumerLoop<T> loop;
    private Thread loopThread;

    public QueueEngine(QueueSettings<T> settings, ItemOrder order) {
        this.settings = settings;
        Receipts receipts = new Receipts(settings.client(), settings.path() + "/" + RECEIPTS);
        this.store = new QueueStore(settings.client(), settings.path(), PREFIX, order, settings.layout() == QueueLayout.FLAT, receipts);
        this.deadLetters = new DeadLetters(settings.client(), settings.deadLetterPath(), receipts);
        this.claims = settings.lockPath() == null ? null : new Claims(settings.client(), store, settings.lockPath(), deadLetters);
    }

    public QueueState state() {
        return state.get();
    }

    /**
     * Starts the queue without waiting for ZooKeeper: a consumer thread makes the queue's nodes
     * and consumes, retrying while there is no connection; a queue without a consumer asks for
     * its node in the background (a put makes whatever it misses anyway).
     */
    public void start() {
        BatonClient client = settings.client();
        if (!client.isClosed()) {   // a closed client is let through here, as before
            // a consumer would wait for a connection that a client never started never makes; the
            // queue stays LATENT, so the same queue starts once the client has
            client.requireStarted("start the queue", settings.path());
        }
        if (!state.compareAndSet(QueueState.LATENT, QueueState.STARTED)) {
            throw new IllegalStateException("start() may be called once, on a new queue; it is " + state.get());
        }
        if (settings.consumer() == null) {
            settings.client().create().creatingParentContainersIfNeeded().forPathAsync(settings.path()).exceptionally(e -> {
                if (!(Failures.unwrap(e) instanceof NodeExistsException)) {
                    LOG.debug("queue {}: its node was not made at start ({}); the first put makes it", settings.path(), e.toString());
                }
                return null;
            });
            return;
        }
        var executor = settings.executor();
        if (executor == null) {
            int n = THREADS.incrementAndGet();
            ownExecutor = Executors.newFixedThreadPool(settings.concurrency(), r -> daemon(r, "baton-queue-" + n + "-consumer"));
            executor = ownExecutor;
        }
        Delivery<T> delivery = new Delivery<>(settings.consumer(), settings.serializer(), settings.maxDeliveryAttempts(),
            settings.retryBackoff());
        loop = new ConsumerLoop<>(store, claims, deadLetters, delivery, signal, executor, settings.concurrency(),
            settings.takeBatch(), () -> state.get() == QueueState.STARTED);
        settings.client().addConnectionStateListener(signal);
        loopThread = daemon(loop, "baton-queue-" + THREADS.incrementAndGet() + " " + settings.path());
        loopThread.start();
    }

    /**
     * Serializes and puts {@code items} in one transaction, named {@code queue-<middle><seq>};
     * with maxItems, first waits up to {@code maxWait} for room. Returns false if there was none.
     */
    public boolean put(List<T> items, String middle, Duration maxWait) throws InterruptedException {
        requireStarted("put");
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must not be negative, was " + maxWait);
        }
        if (items.isEmpty() || items.size() > MAX_PUT_MULTI) {
            throw new IllegalArgumentException("a put takes 1 to " + MAX_PUT_MULTI + " items, was " + items.size());
        }
        List<byte[]> datas = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            datas.add(Envelope.wrap(serialize(items.get(i), i)));
        }
        if (settings.maxItems() > 0 && !awaitRoom(items.size(), maxWait)) {
            return false;
        }
        store.put(datas, middle);
        return true;
    }

    /** {@link #put} with the queue's put timeout; fails with QueueFullException if there was no room. */
    public void putOrFail(List<T> items, String middle) throws InterruptedException {
        if (!put(items, middle, settings.putTimeout())) {
            throw new QueueFullException("queue " + settings.path() + " held " + settings.maxItems() + " items or more for "
                + settings.putTimeout() + " (maxItems " + settings.maxItems() + ")");
        }
    }

    private byte[] serialize(T item, int index) {
        Objects.requireNonNull(item, () -> "item " + index + " is null: a queue item cannot be null");
        byte[] bytes;
        try {
            bytes = settings.serializer().serialize(item);
        } catch (RuntimeException e) {
            throw new QueueSerializationException("the serializer failed on item " + index + ": " + e, e);
        }
        if (bytes == null) {
            throw new QueueSerializationException("the serializer returned null for item " + index, null);
        }
        return bytes;
    }

    /**
     * Waits for the queue to hold at most maxItems - n items. Watch-driven, not polled: a persistent
     * recursive watch on the queue's path wakes the wait when a node below it is deleted (an item
     * taken, so room may have appeared; puts do not wake it), and a reconnect wakes it to count again
     * (a session expiry drops the watch, so it is set again on each new session).
     */
    private boolean awaitRoom(int n, Duration maxWait) throws InterruptedException {
        if (n > settings.maxItems()) {
            throw new IllegalArgumentException("cannot put " + n + " items into a queue bounded to " + settings.maxItems());
        }
        Deadline deadline = Deadline.after(maxWait, settings.client().ticker());
        BatonClient client = settings.client();
        ChangeSignal room = new ChangeSignal();
        Watcher onTaken = event -> {
            if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
                room.bump();
            }
        };
        client.addConnectionStateListener(room);
        waitingPuts.add(room);
        long watchedSession = 0;
        try {
            while (true) {
                long seen = room.generation();
                // close() bumps the signal: a closed queue refuses the put rather than let it wait out its timeout
                requireStarted("put");
                long session = client.sessionId();
                if (session != watchedSession) {
                    // before counting, so that no take between the count and the wait goes unseen
                    client.watches().add(settings.path(), AddWatchMode.PERSISTENT_RECURSIVE, onTaken);
                    watchedSession = session;
                }
                if (store.count() + n <= settings.maxItems()) {
                    return true;
                }
                if (!room.awaitChange(seen, deadline)) {
                    return false;
                }
            }
        } finally {
            waitingPuts.remove(room);
            client.removeConnectionStateListener(room);
            if (watchedSession != 0) {
                client.watches().removeAsync(settings.path(), onTaken, Watcher.WatcherType.Any);
            }
        }
    }

    /** Items waiting (locked ones included). */
    public long count() throws InterruptedException {
        requireStarted("count");
        return store.count();
    }

    /** Up to {@code max} dead letters, oldest first. */
    public List<DeadLetter> deadLetters(int max) throws InterruptedException {
        return deadLetters.read(max);
    }

    /** Removes every waiting item with {@code id}; returns how many this call removed. */
    public int removeById(String id) throws InterruptedException {
        requireStarted("remove");
        String clean = ItemNames.cleanId(id);
        int removed = 0;
        for (ItemRef ref : store.listEverything()) {
            if (!clean.equals(ItemNames.idOf(PREFIX, ref.name()))) {
                continue;
            }
            if (claims != null) {
                Claims.Claim claim = claims.tryClaim(ref);
                removed += claim != null && claims.ack(claim, List.of()) ? 1 : 0;
            } else {
                NodeData data = store.read(ref);
                removed += data != null && store.take(ref, data) != null ? 1 : 0;
            }
        }
        return removed;
    }

    /**
     * Stops taking items, waits up to the close timeout for deliveries under way, then interrupts
     * them (a plain-mode item interrupted that way becomes a dead letter; a guaranteed-mode one is
     * given back). The client stays open.
     */
    public void close() {
        QueueState previous = state.getAndSet(QueueState.CLOSED);
        if (previous != QueueState.STARTED) {
            return;
        }
        settings.client().removeConnectionStateListener(signal);
        signal.bump();
        waitingPuts.forEach(ChangeSignal::bump);
        try {
            if (loopThread != null) {
                // One grace period for the deliveries under way, not one per step: the loop thread may be waiting
                // for one of their slots to come free (more items wait), so its join can use up the whole period.
                Deadline grace = Deadline.after(settings.closeTimeout(), settings.client().ticker());
                loopThread.join(Math.max(1, grace.remaining().toMillis()));
                if (loopThread.isAlive()) {
                    loopThread.interrupt();
                    loopThread.join(Math.max(1, Timeouts.millis(settings.closeTimeout()))); // join(0) would wait for ever
                }
                if (!loop.awaitIdle(grace.remaining()) && ownExecutor != null) {
                    LOG.warn("queue {}: consumers still busy after {}; interrupting them", settings.path(), settings.closeTimeout());
                    ownExecutor.shutdownNow();
                    loop.awaitIdle(settings.closeTimeout());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (ownExecutor != null) {
                ownExecutor.shutdownNow();
            }
            store.receipts().close();
        }
    }

    private void requireStarted(String operation) {
        QueueState s = state.get();
        switch (s) {
            case STARTED -> {
            }
            case LATENT -> throw new IllegalStateException(operation + ": call start() first");
            case CLOSED -> throw new IllegalStateException(operation + ": the queue is closed");
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}

package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InvalidPathException;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Configures a {@link DistributedQueue} (or its priority, delay and id forms). Each setting is
 * checked as it is set.
 *
 * <pre>{@code
 * DistributedQueue<Job> queue = QueueBuilder.builder(client, job -> run(job), jobSerializer, "/jobs")
 *     .lockPath("/jobs-locks")          // guaranteed delivery
 *     .maxItems(10_000)                 // puts wait while 10,000 items wait
 *     .concurrency(4)                   // four items consumed at a time
 *     .buildQueue();
 * }</pre>
 */
public final class QueueBuilder<T> {
    /** Default of {@link #putTimeout(Duration)}: 10 s. */
    public static final Duration DEFAULT_PUT_TIMEOUT = Duration.ofSeconds(10);
    /** Default of {@link #maxDeliveryAttempts(int)}: 3. */
    public static final int DEFAULT_MAX_DELIVERY_ATTEMPTS = 3;
    /** Default of {@link #retryBackoff(Duration)}: 100 ms. */
    public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMillis(100);
    /** Largest {@link #takeBatch(int)}: one transaction deleting this many items stays far below ZooKeeper's packet limit. */
    public static final int MAX_TAKE_BATCH = 1_000;
    /** Default of {@link #closeTimeout(Duration)}: 10 s. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final BatonClient client;
    private final QueueConsumer<T> consumer;
    private final QueueSerializer<T> serializer;
    private final String path;
    private String lockPath;
    private String deadLetterPath;
    private int maxItems;
    private Duration putTimeout = DEFAULT_PUT_TIMEOUT;
    private int concurrency = 1;
    private int takeBatch = 1;
    private Executor executor;
    private int maxDeliveryAttempts = DEFAULT_MAX_DELIVERY_ATTEMPTS;
    private Duration retryBackoff = DEFAULT_RETRY_BACKOFF;
    private QueueLayout layout = QueueLayout.SHARDED;
    private Duration closeTimeout = DEFAULT_CLOSE_TIMEOUT;

    private QueueBuilder(BatonClient client, QueueConsumer<T> consumer, QueueSerializer<T> serializer, String path) {
        this.client = Objects.requireNonNull(client, "client");
        this.consumer = consumer;
        this.serializer = Objects.requireNonNull(serializer, "serializer");
        this.path = ZPaths.validateRecipePath("DistributedQueue", path);
    }

    /**
     * A queue at {@code path}. {@code consumer} may be null for a queue that only puts.
     *
     * @param <T> the item type
     * @param client the client whose session the queue's requests use
     * @param consumer called with each item, or null for a queue that only puts
     * @param serializer turns items into bytes and back
     * @param path the queue's folder, such as {@code /app/jobs}
     * @return a builder; one of the {@code build...()} methods makes the queue
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public static <T> QueueBuilder<T> builder(BatonClient client, QueueConsumer<T> consumer, QueueSerializer<T> serializer,
                                              String path) {
        return new QueueBuilder<>(client, consumer, serializer, path);
    }

    /**
     * Guaranteed delivery: items are locked under {@code lockPath} while consumed and removed
     * only after the consumer returned. Without it, an item is removed when it is handed over.
     *
     * @param lockPath the folder for the items' locks, outside the queue's folder
     * @return this builder
     * @throws dev.baton.framework.InvalidPathException if {@code lockPath} is not a valid folder outside the
     *     queue's, or is, holds or lies inside the {@link #deadLetterPath} already set
     */
    public QueueBuilder<T> lockPath(String lockPath) {
        ZPaths.validateRecipePath("DistributedQueue lockPath", lockPath);
        if (lockPath.equals(path) || lockPath.startsWith(path + "/")) {
            throw new InvalidPathException("DistributedQueue lockPath", lockPath,
                "the lock folder must be outside the queue path " + path + " (expected a folder such as " + path + "-locks)");
        }
        if (deadLetterPath != null && overlap(lockPath, deadLetterPath)) {
            throw new InvalidPathException("DistributedQueue lockPath", lockPath, apart("lock folder", "dead-letter path", deadLetterPath));
        }
        this.lockPath = lockPath;
        return this;
    }

    /**
     * Where items given up on are recorded. Default {@code <path>/dead-letters}. It may be inside
     * the queue's folder, under a name of its own, or anywhere outside it; but every child of it is
     * read as a dead letter, so it cannot be the queue's folder or hold it, nor be one of the
     * queue's own folders ({@code receipts}, {@code shard-<seq>}, an item) or inside one, nor be,
     * hold or lie inside the {@link #lockPath}: the queue's nodes or the held locks would be
     * listed as unreadable dead letters (and dead letters in a shard counted as waiting items).
     *
     * @param deadLetterPath where items given up on are recorded
     * @return this builder
     * @throws dev.baton.framework.InvalidPathException if {@code deadLetterPath} is not a valid folder, or
     *     is one of those places (the message names it and the path it clashes with)
     */
    public QueueBuilder<T> deadLetterPath(String deadLetterPath) {
        ZPaths.validateRecipePath("DistributedQueue deadLetterPath", deadLetterPath);
        String clash = clashWithQueue(deadLetterPath);
        if (clash != null) {
            throw new InvalidPathException("DistributedQueue deadLetterPath", deadLetterPath, clash
                + " (expected a folder of its own, such as the default " + path + "/dead-letters or " + path + "-dead-letters)");
        }
        if (lockPath != null && overlap(deadLetterPath, lockPath)) {
            throw new InvalidPathException("DistributedQueue deadLetterPath", deadLetterPath, apart("dead-letter folder", "lock path", lockPath));
        }
        this.deadLetterPath = deadLetterPath;
        return this;
    }

    /** Why {@code dead} cannot hold this queue's dead letters, or null if it can. */
    private String clashWithQueue(String dead) {
        if (dead.equals(path)) {
            return "the dead-letter folder cannot be the queue path " + path + " itself: its shards and receipts would be"
                + " listed as dead letters";
        }
        if (path.startsWith(dead + "/")) {
            return "the dead-letter folder cannot hold the queue path " + path + ": the queue's folder would be listed as a"
                + " dead letter";
        }
        if (dead.startsWith(path + "/")) {
            String first = dead.substring(path.length() + 1).split("/", 2)[0];
            if (first.equals(QueueEngine.RECEIPTS) || ItemNames.shardSequence(first) >= 0
                || ItemNames.key(ItemOrder.FIFO, QueueEngine.PREFIX, first, -1) != null) {
                return "the dead-letter folder cannot be in " + ZPaths.join(path, first) + ", one of the queue path " + path
                    + "'s own nodes";
            }
        }
        return null;
    }

    /** Whether one of the two paths is the other or lies inside it. */
    private static boolean overlap(String a, String b) {
        return a.equals(b) || a.startsWith(b + "/") || b.startsWith(a + "/");
    }

    private static String apart(String what, String otherName, String other) {
        return "the " + what + " must be apart from the " + otherName + " " + other
            + " (not the same, neither inside the other): held locks would be listed as dead letters";
    }

    /**
     * Bounds the queue: a put waits (up to the put timeout) while this many items wait. The bound
     * is checked before each put, so concurrent producers may overshoot it by a put each.
     *
     * @param maxItems the bound, 1 or more
     * @return this builder
     */
    public QueueBuilder<T> maxItems(int maxItems) {
        this.maxItems = atLeastOne("maxItems", maxItems);
        return this;
    }

    /**
     * How long {@code put(item)} waits for room in a bounded queue before QueueFullException. Default 10 s.
     *
     * @param timeout how long {@code put(item)} waits for room in a bounded queue before QueueFullException
     * @return this builder
     */
    public QueueBuilder<T> putTimeout(Duration timeout) {
        this.putTimeout = nonNegative("putTimeout", timeout);
        return this;
    }

    /**
     * How many items are consumed at the same time. Default 1 (one after another, in order).
     *
     * @param concurrency how many items are consumed at the same time
     * @return this builder
     */
    public QueueBuilder<T> concurrency(int concurrency) {
        this.concurrency = atLeastOne("concurrency", concurrency);
        return this;
    }

    /**
     * Plain mode only: how many items the consumer removes in one transaction, before handing
     * them to the consumer one after another, in order. Default 1. A batch costs one write
     * instead of one per item, which is most of the cost of consuming a small item; the price is
     * the crash window: a consumer process that dies loses every item it removed and has not
     * consumed yet, up to {@code takeBatch × concurrency} items instead of {@code concurrency}.
     * Guaranteed mode ({@link #lockPath}) locks, consumes and removes each item on its own, so
     * {@link #buildQueue()} refuses a batch larger than 1 there.
     *
     * @param items 1 to {@link #MAX_TAKE_BATCH}
     * @return this builder
     */
    public QueueBuilder<T> takeBatch(int items) {
        if (items < 1 || items > MAX_TAKE_BATCH) {
            throw new IllegalArgumentException("takeBatch must be 1 to " + MAX_TAKE_BATCH + " items, was " + items);
        }
        this.takeBatch = items;
        return this;
    }

    /**
     * Where the consumer runs. Default: threads of the queue's own (as many as the concurrency).
     *
     * @param executor where the consumer runs
     * @return this builder
     */
    public QueueBuilder<T> executor(Executor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
        return this;
    }

    /**
     * How many times a consumer that throws is given an item before it becomes a dead letter. Default 3.
     *
     * @param attempts how many times a consumer that throws is given an item before it becomes a dead letter
     * @return this builder
     */
    public QueueBuilder<T> maxDeliveryAttempts(int attempts) {
        this.maxDeliveryAttempts = atLeastOne("maxDeliveryAttempts", attempts);
        return this;
    }

    /**
     * Pause before the n-th retry of a failed item: n times this. Default 100 ms.
     *
     * @param backoff the pause before the first retry; the n-th waits n times as long
     * @return this builder
     */
    public QueueBuilder<T> retryBackoff(Duration backoff) {
        this.retryBackoff = nonNegative("retryBackoff", backoff);
        return this;
    }

    /**
     * Where puts go; consumers read both layouts. Default {@link QueueLayout#SHARDED}.
     *
     * @param layout where puts go; consumers read both layouts
     * @return this builder
     */
    public QueueBuilder<T> layout(QueueLayout layout) {
        this.layout = Objects.requireNonNull(layout, "layout");
        return this;
    }

    /**
     * How long close() lets deliveries under way finish before interrupting them. Default 10 s.
     *
     * @param timeout how long close() lets deliveries under way finish before interrupting them
     * @return this builder
     */
    public QueueBuilder<T> closeTimeout(Duration timeout) {
        this.closeTimeout = nonNegative("closeTimeout", timeout);
        return this;
    }

    /** {@return a FIFO queue} */
    public DistributedQueue<T> buildQueue() {
        return new DistributedQueue<>(engine(ItemOrder.FIFO));
    }

    /** {@return a queue ordered by priority, lowest first} */
    public DistributedPriorityQueue<T> buildPriorityQueue() {
        return new DistributedPriorityQueue<>(engine(ItemOrder.PRIORITY));
    }

    /** {@return a queue whose items are delivered no earlier than their time} */
    public DistributedDelayQueue<T> buildDelayQueue() {
        return new DistributedDelayQueue<>(engine(ItemOrder.DELAY));
    }

    /** {@return a FIFO queue whose items carry ids and can be removed by id} */
    public DistributedIdQueue<T> buildIdQueue() {
        return new DistributedIdQueue<>(engine(ItemOrder.ID));
    }

    private QueueEngine<T> engine(ItemOrder order) {
        if (lockPath != null && takeBatch > 1) {
            throw new IllegalStateException("takeBatch(" + takeBatch + ") applies to plain mode only: with lockPath " + lockPath
                + " every item is locked, consumed and removed on its own (leave takeBatch at 1, or drop lockPath)");
        }
        String dead = deadLetterPath != null ? deadLetterPath : path + "/dead-letters";
        return new QueueEngine<>(new QueueSettings<>(client, consumer, serializer, path, lockPath, dead, maxItems, putTimeout,
            concurrency, takeBatch, executor, maxDeliveryAttempts, retryBackoff, layout, closeTimeout), order);
    }

    private static int atLeastOne(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
        return value;
    }

    private static Duration nonNegative(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
        return value;
    }
}

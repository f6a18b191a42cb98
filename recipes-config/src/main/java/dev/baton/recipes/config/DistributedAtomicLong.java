package dev.baton.recipes.config;

import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.Blocking;
import dev.baton.framework.Deadline;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.ZPaths;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.framework.retry.RetryPolicy;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A counter shared by processes: Curator's {@code DistributedAtomicLong}, same node and bytes
 * (the path itself holds the value as 8 bytes, big-endian; a missing node counts as 0), so Curator
 * and Baton processes count together.
 *
 * <p>Algorithm: optimistic compare-and-set. Read the node and its version, compute the new value,
 * write it at that version (or create the node if there was none); if someone wrote first, ask
 * the {@link RetryPolicy} whether and when to try again. With a {@link PromotedToLock}, an update
 * whose optimistic attempts gave up takes a mutex at the promotion's lock path (Curator's
 * {@code InterProcessMutex} layout, through the framework's contention engine) and tries again
 * under it, with the promotion's own policy. Every process that updates under contention must use
 * the same lock path for the lock to help.
 *
 * <p>Guarantees and caveats. Every successful update moved the value from its {@code preValue}
 * to its {@code postValue} with nobody writing in between, so two updates never report the same
 * step. A write whose reply was lost to a connection loss may have been applied before the client
 * retried it; the retry then finds the version moved and the update runs again on top, as
 * Curator's does: the counter skips a value, it never hands one out twice. An update can give up:
 * always look at {@link AtomicValue#succeeded()}. The promotion's lock only spaces out the
 * updaters and is not what makes an update correct: if its hold is lost during an update (its
 * session ends), the update's compare-and-set still decides, and an applied update is reported as
 * applied. Plain writes to the node bypass all this;
 * {@link #forceSet} is one.
 *
 * <pre>{@code
 * DistributedAtomicLong orders = new DistributedAtomicLong(client, "/counters/orders",
 *     new RetryNTimes(50, Duration.ofMillis(10)));
 * AtomicValue<Long> v = orders.increment();
 * if (v.succeeded()) {
 *     log.info("order number {}", v.postValue());
 * }
 * }</pre>
 */
public final class DistributedAtomicLong {
    private static final Logger LOG = LoggerFactory.getLogger(DistributedAtomicLong.class);
    private static final byte[] NO_DATA = new byte[0];

    private final BatonClient client;
    private final String path;
    private final RetryPolicy retryPolicy;
    private final PromotedToLock promotion;
    private final Contention lock;

    /**
     * An optimistic counter.
     *
     * @param client the client it reads and writes with
     * @param path the counter's node (Curator's layout: 8 bytes, big-endian)
     * @param retryPolicy how often, and after what pause, a compare-and-set that lost a race is tried again
     */
    public DistributedAtomicLong(BatonClient client, String path, RetryPolicy retryPolicy) {
        this(client, path, retryPolicy, null);
    }

    /**
     * A counter that falls back to a mutex when optimism gives up.
     *
     * @param client the client it reads and writes with
     * @param path the counter's node (Curator's layout: 8 bytes, big-endian)
     * @param retryPolicy retries of the optimistic compare-and-set
     * @param promotedToLock the mutex (Curator's lock layout) and the retries under it; null: never promoted
     */
    public DistributedAtomicLong(BatonClient client, String path, RetryPolicy retryPolicy, PromotedToLock promotedToLock) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = ZPaths.validateRecipePath("DistributedAtomicLong", path);
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
        this.promotion = promotedToLock;
        this.lock = promotedToLock == null ? null
            : Contention.of(client, promotedToLock.lockPath(), "lock-", ContentionRule.mutex());
    }

    /**
     * The value now, read from the servers; always succeeds.
     *
     * @return the value (0 if it was never set) as both pre and post value
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public AtomicValue<Long> get() throws InterruptedException {
        long value = read().map(d -> decode(d.data())).orElse(0L);
        return new AtomicValue<>(true, value, value);
    }

    /**
     * Sets the value without any compare (a plain write).
     *
     * @param newValue the value
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public void forceSet(Long newValue) throws InterruptedException {
        byte[] bytes = encode(Objects.requireNonNull(newValue, "newValue"));
        try {
            client.setData().forPath(path, bytes);
        } catch (NoNodeException e) {
            try {
                client.create().creatingParentContainersIfNeeded().forPath(path, bytes);
            } catch (NodeExistsException raced) {
                client.setData().forPath(path, bytes);
            }
        }
    }

    /**
     * Sets the initial value if the counter was never set.
     *
     * @param value the initial value
     * @return true if it was set, false if the counter already existed
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public boolean initialize(Long value) throws InterruptedException {
        try {
            client.create().creatingParentContainersIfNeeded().forPath(path, encode(Objects.requireNonNull(value, "value")));
            return true;
        } catch (NodeExistsException e) {
            return false;
        }
    }

    /**
     * One try: sets {@code newValue} if the value is {@code expectedValue} (fails on a counter
     * that was never set, as Curator's does).
     *
     * @param expectedValue the value the counter must have
     * @param newValue the value to set
     * @return whether it was set, and the values before and after
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public AtomicValue<Long> compareAndSet(Long expectedValue, Long newValue) throws InterruptedException {
        Objects.requireNonNull(expectedValue, "expectedValue");
        byte[] bytes = encode(Objects.requireNonNull(newValue, "newValue"));
        Optional<NodeData> now = read();
        long pre = now.map(d -> decode(d.data())).orElse(0L);
        if (now.isEmpty() || pre != expectedValue) {
            return new AtomicValue<>(false, pre, pre);
        }
        try {
            client.setData().withVersion(now.get().stat().getVersion()).forPath(path, bytes);
            return new AtomicValue<>(true, pre, newValue);
        } catch (BadVersionException | NoNodeException e) {
            return new AtomicValue<>(false, pre, pre);
        }
    }

    /**
     * Sets the value, optimistically (then under the lock, if promoted).
     *
     * @param newValue the value to set
     * @return whether it was set before the retry policies gave up, and the values before and after
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public AtomicValue<Long> trySet(Long newValue) throws InterruptedException {
        long value = Objects.requireNonNull(newValue, "newValue");
        return update(previous -> value);
    }

    /**
     * Adds one, optimistically (then under the lock, if promoted).
     *
     * @return whether it was added before the retry policies gave up, and the values before and after
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public AtomicValue<Long> increment() throws InterruptedException {
        return update(v -> v + 1);
    }

    /**
     * Subtracts one, optimistically (then under the lock, if promoted).
     *
     * @return whether it was subtracted before the retry policies gave up, and the values before and after
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public AtomicValue<Long> decrement() throws InterruptedException {
        return update(v -> v - 1);
    }

    /**
     * Adds {@code delta}, optimistically (then under the lock, if promoted).
     *
     * @param delta what to add
     * @return whether it was added before the retry policies gave up, and the values before and after
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public AtomicValue<Long> add(Long delta) throws InterruptedException {
        long d = Objects.requireNonNull(delta, "delta");
        return update(v -> v + d);
    }

    /**
     * Subtracts {@code delta}, optimistically (then under the lock, if promoted).
     *
     * @param delta what to subtract
     * @return whether it was subtracted before the retry policies gave up, and the values before and after
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public AtomicValue<Long> subtract(Long delta) throws InterruptedException {
        long d = Objects.requireNonNull(delta, "delta");
        return update(v -> v - d);
    }

    /**
     * The counter's path.
     *
     * @return the node's absolute path
     */
    public String path() {
        return path;
    }

    // ---- the update ----

    /** The result of one compare-and-set attempt; {@code cause} is why it lost, null if it won. */
    private record Attempt(long pre, long post, BatonException cause) {
        boolean won() {
            return cause == null;
        }
    }

    private AtomicValue<Long> update(LongUnaryOperator change) throws InterruptedException {
        Attempt last = retried(change, retryPolicy);
        if (last.won() || promotion == null) {
            return result(last);
        }
        Holding hold = lock.acquireHoldBlocking(NO_DATA, promotion.timeout().map(Deadline::afterNonNegative).orElse(Deadline.none()));
        if (hold == null) {
            return result(last); // the lock did not come in time
        }
        try {
            return result(retried(change, promotion.retryPolicy()));
        } finally {
            giveBack(hold);
        }
    }

    /**
     * Releases the promotion's lock. The lock only spaces out the updaters: every write under it is
     * still a compare-and-set on the counter's version, so a hold lost meanwhile (its session ended,
     * its connection dropped) cannot have let a wrong value in, and its release must not turn an
     * update that was applied into a failure (a caller that retried then would count twice).
     */
    private void giveBack(Holding hold) {
        try {
            hold.deleteAndWait("DistributedAtomicLong " + path + " lock " + promotion.lockPath());
        } catch (OwnershipLostException lost) {
            LOG.info("DistributedAtomicLong {}: the lock {} was lost during the update ({}); the update's own"
                + " compare-and-set decided it", path, promotion.lockPath(), lost.getMessage());
        }
    }

    private static AtomicValue<Long> result(Attempt a) {
        return a.won() ? new AtomicValue<>(true, a.pre(), a.post()) : new AtomicValue<>(false, a.pre(), a.pre());
    }

    /** Tries until an attempt wins or {@code policy} gives up; returns the last attempt. */
    private Attempt retried(LongUnaryOperator change, RetryPolicy policy) throws InterruptedException {
        long start = System.nanoTime();
        for (int retry = 1; ; retry++) {
            Attempt a = once(change);
            if (a.won()) {
                return a;
            }
            Optional<Duration> wait = policy.retryAfter(retry, Duration.ofNanos(System.nanoTime() - start), a.cause());
            if (wait.isEmpty()) {
                return a;
            }
            if (!wait.get().isZero()) {
                long nanos = wait.get().toNanos();
                Blocking.managed(() -> {
                    TimeUnit.NANOSECONDS.sleep(nanos);
                    return null;
                });
            } else if (Thread.interrupted()) {
                throw new InterruptedException("DistributedAtomicLong " + path);
            }
        }
    }

    private Attempt once(LongUnaryOperator change) throws InterruptedException {
        Optional<NodeData> now = read();
        long pre = now.map(d -> decode(d.data())).orElse(0L);
        long post = change.applyAsLong(pre);
        try {
            if (now.isEmpty()) {
                client.create().creatingParentContainersIfNeeded().forPath(path, encode(post));
            } else {
                client.setData().withVersion(now.get().stat().getVersion()).forPath(path, encode(post));
            }
            return new Attempt(pre, post, null);
        } catch (BadVersionException | NodeExistsException | NoNodeException lost) {
            return new Attempt(pre, post, lost);
        }
    }

    private Optional<NodeData> read() throws InterruptedException {
        try {
            return Optional.of(client.getData().forPathWithStat(path));
        } catch (NoNodeException e) {
            return Optional.empty();
        }
    }

    static byte[] encode(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    /** As Curator reads it: empty is 0, otherwise the first eight bytes, big-endian. */
    private long decode(byte[] data) {
        if (data.length == 0) {
            return 0;
        }
        if (data.length < Long.BYTES) {
            throw new ConfigValueException(path, "DistributedAtomicLong " + path + ": expected 8 bytes (a big-endian long), was "
                + data.length + " bytes", null);
        }
        return ByteBuffer.wrap(data).getLong();
    }
}

package dev.baton.recipes.barrier;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.AsyncConditionWait;
import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;

/**
 * {@link java.util.concurrent.CountDownLatch} across processes: some wait until others have
 * counted down to zero. Unlike the JDK's, it can be set again once it reached zero.
 *
 * <p>Algorithm. The latch node holds {@code "<generation> <count>"}. Each count-down is a node of
 * its own, {@code g-<generation>/_c_<uuid>-c-<seq>}, created with protection — so a count-down
 * whose reply was lost is found, not applied twice, and never lost either. The remaining count is
 * {@code count} minus those nodes. The count-down that reaches zero creates {@code g-<generation>/done}.
 * That is a second write, which a count-down can fail to make after its count node is in (a reply
 * lost for good, a session expired, a process killed in between): so the marker is a summary, not
 * the truth. Whoever finds the count nodes at {@code count} and no marker — a waiter, a later
 * count-down, {@link #trySetCount} — writes the marker itself. Waiters watch {@code done} and the
 * generation's children, so they wake for the count node that reached zero even if nobody ever
 * marks it. {@link #trySetCount} starts a new generation, atomically, and only when the current
 * one is done (or none exists).
 *
 * <p>Guarantees and caveats: each call to {@link #countDown()} that returns counts exactly once,
 * whatever happens to its replies; a count-down that fails with an exception may or may not have
 * counted (its node, if made, is deleted in the background). Counting down at zero does nothing.
 * A waiter that started on one generation returns when that generation reached zero, even if the
 * latch was set again meanwhile. The previous generation's nodes are kept until the next one is
 * set, then deleted. Every count-down wakes every waiter once (they watch the count nodes): meant
 * for tens of waiters, not thousands.
 *
 * <pre>{@code
 * DistributedCountDownLatch loaded = new DistributedCountDownLatch(client, "/jobs/load-done");
 * loaded.trySetCount(3);          // coordinator
 * loaded.countDown();             // each of three loaders, when finished
 * loaded.await();                 // whoever needs all three
 * loaded.awaitAsync().thenRun(this::report);   // or without a thread parked
 * }</pre>
 */
public final class DistributedCountDownLatch {
    private static final String DONE = "done";

    /** The latch's current generation and count, as stored. */
    private record Latch(long generation, long count, int version) {
    }

    private final BatonClient client;
    private final String path;

    /**
     * A latch whose count is kept in the node {@code path}.
     *
     * @param client the client to read and write the latch's node with
     * @param path the latch's node, such as {@code /jobs/load-done}
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid path for a recipe
     */
    public DistributedCountDownLatch(BatonClient client, String path) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = ZPaths.validateRecipePath("DistributedCountDownLatch", path);
    }

    /**
     * Sets the count, if the latch is at zero (or was never set).
     *
     * @param count the count to start from, 0 or more
     * @return true if set; false if a count-down is in progress (set it again once it reaches zero)
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public boolean trySetCount(long count) throws InterruptedException {
        if (count < 0) {
            throw new IllegalArgumentException("count must be 0 or more, was " + count);
        }
        while (true) {
            Latch latch = read();
            if (latch == null) {
                if (createFirst(count)) {
                    return true;
                }
                continue;
            }
            if (!isDone(latch)) {
                return false;
            }
            long next = latch.generation() + 1;
            TransactionBuilder t = client.transaction()
                .check(path, latch.version())
                .setData(path, encode(next, count))
                .create(generation(next), new byte[0]);
            if (count == 0) {
                t.create(ZPaths.join(generation(next), DONE), new byte[0]);
            }
            try {
                t.commit();
            } catch (TransactionFailedException e) {
                if (e.code() == org.apache.zookeeper.KeeperException.Code.BADVERSION) {
                    continue;
                }
                throw e;
            }
            // the generation before the one that just ended is nobody's any more
            client.delete().quietly().deletingChildrenIfNeeded().forPathAsync(generation(latch.generation() - 1));
            return true;
        }
    }

    /**
     * Counts down by one; does nothing at zero. Counts exactly once even if a reply is lost.
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public void countDown() throws InterruptedException {
        Latch latch = read();
        if (latch == null || isDone(latch)) {
            return;
        }
        String folder = generation(latch.generation());
        try {
            client.create().withProtection().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .forPath(ZPaths.join(folder, "c-"));
        } catch (NoNodeException generationGone) {
            return; // reset after it reached zero: nothing left to count
        }
        if (countDowns(folder) >= latch.count()) {
            markDone(folder);
        }
    }

    /**
     * {@return the count now: 0 when never set or when reached}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    public long getCount() throws InterruptedException {
        Latch latch = read();
        if (latch == null) {
            return 0;
        }
        String folder = generation(latch.generation());
        if (client.checkExists().forPath(ZPaths.join(folder, DONE)) != null) {
            return 0;
        }
        return Math.max(0, latch.count() - countDowns(folder));
    }

    /**
     * Waits until the count reaches zero.
     *
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void await() throws InterruptedException {
        await(Deadline.none());
    }

    /**
     * Waits up to {@code timeout} for the count to reach zero; returns whether it did.
     *
     * @param timeout how long to wait at most
     * @return whether the count reached zero
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean await(Duration timeout) throws InterruptedException {
        return await(Deadline.afterNonNegative(timeout, client.ticker()));
    }

    /**
     * Waits, with no thread parked, until the count reaches zero: the future completes with true then
     * (on the client's async executor; at once if the latch is at zero or was never set). It fails with
     * {@link ClientClosedException} if the client closes first, and with a look's own
     * {@link dev.baton.framework.BatonException} for a failure that is not connection trouble (a
     * connection lost or a session expired only waits for the next connection). Cancelling it stops the
     * wait; nothing of it is left but one-shot watches on the latch's nodes, which wake nothing.
     *
     * @return completes with true once the count reached zero
     */
    public CompletableFuture<Boolean> awaitAsync() {
        return awaitAsync(Deadline.none());
    }

    /**
     * {@link #awaitAsync()} for at most {@code timeout}: the future completes with false if the count
     * has not reached zero by then, as {@link #await(Duration)} returns. {@link Duration#ZERO} looks once.
     *
     * @param timeout how long to wait at most
     * @return completes with whether the count reached zero in time
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public CompletableFuture<Boolean> awaitAsync(Duration timeout) {
        return awaitAsync(Deadline.afterNonNegative(timeout, client.ticker()));
    }

    private CompletableFuture<Boolean> awaitAsync(Deadline deadline) {
        // the generation the wait is on: read (without a watch) by its first look, as the blocking form reads it first
        AtomicReference<Latch> started = new AtomicReference<>();
        return ObservedWait.async(client, "countdown-latch", path, () -> AsyncConditionWait.start(client, deadline,
            () -> new ClientClosedException("await", path), watcher -> lookAsync(started, watcher)));
    }

    /** The blocking wait's look ({@link #awaitZero}), asynchronous. */
    private CompletableFuture<Boolean> lookAsync(AtomicReference<Latch> started, Watcher watcher) {
        Latch start = started.get();
        if (start == null) {
            return Futures.nullIfNoNode(client.getData().forPathWithStatAsync(path)).thenCompose(data -> {
                if (data == null) {
                    return CompletableFuture.completedFuture(true); // never set: nothing to wait for
                }
                started.compareAndSet(null, decode(data)); // a look beside this one may have read it first
                return lookAsync(started, watcher);
            });
        }
        String folder = generation(start.generation());
        return client.checkExists().usingWatcher(watcher).forPathAsync(ZPaths.join(folder, DONE)).thenCompose(done -> {
            if (done != null) {
                return CompletableFuture.completedFuture(true);
            }
            return client.getData().usingWatcher(watcher).forPathWithStatAsync(path).thenCompose(now ->
                // set again since we started: our generation reached zero first; else count the nodes
                decode(now).generation() > start.generation() ? CompletableFuture.completedFuture(true)
                    : countedOutAsync(folder, start.count(), watcher));
        });
    }

    /** {@link #countedOut} with a watcher, asynchronous: whether the count nodes reached {@code count}, marking it. */
    private CompletableFuture<Boolean> countedOutAsync(String folder, long count, Watcher watcher) {
        return Futures.nullIfNoNode(client.getChildren().usingWatcher(watcher).forPathAsync(folder)).thenCompose(children -> {
            if (children == null) {
                return CompletableFuture.completedFuture(false);
            }
            if (children.contains(DONE)) {
                return CompletableFuture.completedFuture(true);
            }
            if (children.size() < count) {
                return CompletableFuture.completedFuture(false);
            }
            return client.create().forPathAsync(ZPaths.join(folder, DONE)).thenApply(made -> true).exceptionallyCompose(e -> {
                Throwable cause = Failures.unwrap(e);
                // another count-down or waiter marked it first, or the generation moved on
                return cause instanceof NodeExistsException || cause instanceof NoNodeException
                    ? CompletableFuture.completedFuture(true) : CompletableFuture.failedFuture(cause);
            });
        });
    }

    private boolean await(Deadline deadline) throws InterruptedException {
        return ObservedWait.run(client, "countdown-latch", path, () -> awaitZero(deadline));
    }

    private boolean awaitZero(Deadline deadline) throws InterruptedException {
        Latch start = read();
        if (start == null) {
            return true;
        }
        String done = ZPaths.join(generation(start.generation()), DONE);
        return ChangeSignal.awaitCondition(client, (Watcher watcher) -> {
            if (client.checkExists().usingWatcher(watcher).forPath(done) != null) {
                return true;
            }
            // set again since we started: our generation must have reached zero first
            NodeData now = client.getData().usingWatcher(watcher).forPathWithStat(path);
            if (decode(now).generation() > start.generation()) {
                return true;
            }
            // counted out, but the count-down that did it may never mark it: watch the count nodes too
            return countedOut(generation(start.generation()), start.count(), watcher);
        }, deadline);
    }

    /**
     * Whether {@code latch}'s generation reached zero: marked done, or counted out and marked now
     * (the count-down that reached zero may have failed before it could mark it).
     */
    private boolean isDone(Latch latch) throws InterruptedException {
        String folder = generation(latch.generation());
        if (client.checkExists().forPath(ZPaths.join(folder, DONE)) != null) {
            return true;
        }
        return countedOut(folder, latch.count(), null);
    }

    /**
     * Whether the count nodes in {@code folder} reached {@code count}; if so, marks the generation
     * done. Leaves {@code watcher} (if not null) on the folder's children.
     */
    private boolean countedOut(String folder, long count, Watcher watcher) throws InterruptedException {
        List<String> children;
        try {
            children = (watcher == null ? client.getChildren() : client.getChildren().usingWatcher(watcher)).forPath(folder);
        } catch (NoNodeException e) {
            return false;
        }
        if (children.contains(DONE)) {
            return true;
        }
        if (children.size() < count) {
            return false;
        }
        markDone(folder);
        return true;
    }

    private void markDone(String folder) throws InterruptedException {
        try {
            client.create().forPath(ZPaths.join(folder, DONE));
        } catch (NodeExistsException | NoNodeException alreadyDone) {
            // another count-down or waiter got there first, or the generation moved on
        }
    }

    private long countDowns(String folder) throws InterruptedException {
        try {
            List<String> children = client.getChildren().forPath(folder);
            return children.stream().filter(name -> !name.equals(DONE)).count();
        } catch (NoNodeException e) {
            return 0;
        }
    }

    private boolean createFirst(long count) throws InterruptedException {
        TransactionBuilder t = client.transaction()
            .create(path, encode(1, count))
            .create(generation(1), new byte[0]);
        if (count == 0) {
            t.create(ZPaths.join(generation(1), DONE), new byte[0]);
        }
        try {
            ensureParent();
            t.commit();
            return true;
        } catch (TransactionFailedException e) {
            if (e.code() == org.apache.zookeeper.KeeperException.Code.NODEEXISTS) {
                return false;
            }
            throw e;
        }
    }

    private void ensureParent() throws InterruptedException {
        String parent = ZPaths.parent(path);
        if (!parent.equals("/")) {
            try {
                client.create().creatingParentsIfNeeded().forPath(parent);
            } catch (NodeExistsException fine) {
                // already there
            }
        }
    }

    private Latch read() throws InterruptedException {
        try {
            return decode(client.getData().forPathWithStat(path));
        } catch (NoNodeException e) {
            return null;
        }
    }

    private Latch decode(NodeData data) {
        String text = new String(data.data(), UTF_8).trim();
        String[] parts = text.split(" ");
        try {
            return new Latch(Long.parseLong(parts[0]), Long.parseLong(parts[1]), data.stat().getVersion());
        } catch (RuntimeException e) {
            throw new BarrierException("latch " + path + " holds '" + text + "', not '<generation> <count>': not a latch?", e);
        }
    }

    private static byte[] encode(long generation, long count) {
        return (generation + " " + count).getBytes(UTF_8);
    }

    private String generation(long generation) {
        return ZPaths.join(path, "g-" + generation);
    }
}

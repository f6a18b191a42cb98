package dev.baton.framework;

import dev.baton.framework.internal.ClientTimer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls run one at a time, in the order they were queued: the one drain loop behind the client's
 * listener delivery and the recipes' notifiers. It does not choose a thread: whoever {@link #claim}s a
 * non-empty idle queue runs {@link #drain()} (on an executor, or in place), and until that drain ends
 * nobody else can claim it, so calls never overlap even on a pool of many threads.
 *
 * <p>Guarantees and caveats: a call that throws is logged with its stack trace, and later calls still
 * run. A call queued while a drain runs is run by that drain. {@link #runOn} claims and hands the drain
 * to an executor, and keeps the calls when the executor refuses it while its client is open (a bounded
 * pool that is full): they are handed over again later, in order (see there). A claimer that hands the
 * drain over itself and cannot run it must {@link #abandon()} it, or the queue stays claimed for good.
 *
 * <pre>{@code
 * queue.add(() -> listener.changed(state));
 * queue.runOn(executor, client, SerialQueue::abandon);
 * }</pre>
 */
public final class SerialQueue {
    private static final Logger LOG = LoggerFactory.getLogger(SerialQueue.class);

    /** The wait before the first new hand-off after a refusal; each refusal after it doubles the wait, up to {@link #RETRY_AT_MOST}. */
    static final Duration RETRY_FIRST = Duration.ofMillis(10);
    /** The longest wait between two hand-offs to an executor that keeps refusing. */
    static final Duration RETRY_AT_MOST = Duration.ofSeconds(1);
    /** At most one warning per queue this often while its executor keeps refusing. */
    static final Duration WARN_EVERY = Duration.ofSeconds(30);

    private final String owner;
    private final ArrayDeque<Runnable> calls = new ArrayDeque<>();
    private boolean draining;
    private volatile Thread runner;
    // ---- refusals since the executor last accepted a drain; guarded by calls ----
    /** How many hand-offs were refused since the last one accepted (0: none; read without the lock as a fast check). */
    private volatile int refusals;
    private long refusedSince;
    private RejectedExecutionException lastRefusal;
    private boolean retryScheduled;
    private long retryAfter = RETRY_FIRST.toNanos();
    /** When this queue last warned of refusals (0: never); kept across runs, so a flapping executor does not flood the log. */
    private long warnedAt;
    private boolean warnedThisRun;
    private boolean toldShutDown;

    /**
     * An empty queue.
     *
     * @param owner names who queues the calls, in log lines ("leader latch /jobs/leader")
     */
    public SerialQueue(String owner) {
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    /**
     * Queues a call; runs nothing (safe inside the caller's own lock).
     *
     * @param call what to run
     */
    public void add(Runnable call) {
        Objects.requireNonNull(call, "call");
        synchronized (calls) {
            calls.add(call);
        }
    }

    /**
     * Claims the next drain: true if calls are queued and no drain is claimed yet, and the caller must
     * then see to it that {@link #drain()} runs (or {@link #abandon()} it).
     *
     * @return whether the caller now owns the drain
     */
    public boolean claim() {
        synchronized (calls) {
            if (draining || calls.isEmpty()) {
                return false;
            }
            draining = true;
            return true;
        }
    }

    /**
     * Claims the drain and hands it to {@code executor}, unless a drain is claimed already or nothing is
     * queued. When the executor refuses it ({@link RejectedExecutionException}):
     * <ul>
     *   <li>while {@code client} is open and the executor is not shut down (a bounded pool that is full,
     *       say), the calls stay queued, in order, ahead of the ones queued later, and the drain is handed
     *       over again at the next call of this method and, so that a quiet system still delivers, on a
     *       timer: after 10 ms, doubling to at most a second, until the executor takes it or the client
     *       closes. A warning says so, at most once every 30 seconds per queue (logged by the timer's
     *       task, on the client's async executor, never on the caller's thread), and a line at info
     *       when the executor takes the calls again.
     *   <li>once {@code client} is closed (it shuts down its own executors), or once the executor is an
     *       {@link ExecutorService} that is shut down (it will never accept again), {@code ifRefusedForGood}
     *       gets the claimed queue, here on the caller's thread: it must {@link #drain()} or
     *       {@link #abandon()} it.
     * </ul>
     *
     * @param executor where the drain runs
     * @param client whose closing ends the retries, and whose scheduler and async executor run them
     * @param ifRefusedForGood what to do with the claimed queue when no retry could succeed
     */
    public void runOn(Executor executor, BatonClient client, Consumer<SerialQueue> ifRefusedForGood) {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(ifRefusedForGood, "ifRefusedForGood");
        if (!claim()) {
            return;
        }
        try {
            executor.execute(this::drain);
        } catch (RejectedExecutionException e) {
            refused(executor, client, ifRefusedForGood, e);
            return;
        }
        if (refusals != 0) {
            accepted();
        }
    }

    /** The executor refused the claimed drain: keep the calls and try again later, or give up the claim for good. */
    private void refused(Executor executor, BatonClient client, Consumer<SerialQueue> ifRefusedForGood, RejectedExecutionException e) {
        boolean shutDown = executor instanceof ExecutorService service && service.isShutdown();
        if (client.isClosed() || shutDown) {
            boolean tell;
            synchronized (calls) {
                tell = shutDown && !toldShutDown && !client.isClosed();
                toldShutDown |= tell;
            }
            if (tell) {
                LOG.warn("the executor of {} is shut down while its client is open: it will run none of its calls any more", owner);
            }
            ifRefusedForGood.accept(this);
            return;
        }
        long delay;
        synchronized (calls) {
            draining = false; // the calls stay, in order; the next claim hands them over
            if (refusals++ == 0) {
                refusedSince = System.nanoTime();
            }
            lastRefusal = e;
            if (retryScheduled) {
                return;
            }
            retryScheduled = true;
            delay = retryAfter;
            retryAfter = Math.min(retryAfter * 2, RETRY_AT_MOST.toNanos());
        }
        ClientTimer.schedule(client, delay, () -> retry(executor, client, ifRefusedForGood));
    }

    /** On the client's async executor, after a wait: says what happened (at most every {@link #WARN_EVERY}), then hands the drain over again. */
    private void retry(Executor executor, BatonClient client, Consumer<SerialQueue> ifRefusedForGood) {
        String warning = null;
        synchronized (calls) {
            retryScheduled = false;
            long now = System.nanoTime();
            if (refusals != 0 && (warnedAt == 0 || now - warnedAt >= WARN_EVERY.toNanos())) {
                warnedAt = now;
                warnedThisRun = true;
                warning = String.format("the executor of %s refused to run its calls %d times in %d ms (%s); the %d calls wait,"
                        + " in order, and are offered again at the next call and at most %d ms apart until it takes them"
                        + " or the client closes", owner, refusals, (now - refusedSince) / 1_000_000, lastRefusal,
                    calls.size(), RETRY_AT_MOST.toMillis());
            }
        }
        if (warning != null) {
            LOG.warn(warning);
        }
        runOn(executor, client, ifRefusedForGood);
    }

    /** A hand-off was taken after refusals: the next refusal starts over, with a short wait and a fresh warning. */
    private void accepted() {
        int refused;
        long since;
        boolean warned;
        synchronized (calls) {
            refused = refusals;
            if (refused == 0) {
                return;
            }
            since = refusedSince;
            warned = warnedThisRun;
            refusals = 0;
            warnedThisRun = false;
            lastRefusal = null;
            retryAfter = RETRY_FIRST.toNanos();
        }
        if (warned) {
            LOG.info("the executor of {} takes its calls again, after {} refusals in {} ms", owner, refused,
                (System.nanoTime() - since) / 1_000_000);
        }
    }

    /** Gives up a claimed drain that cannot run (the executor refused it): the queued calls are dropped. */
    public void abandon() {
        synchronized (calls) {
            calls.clear();
            draining = false;
        }
    }

    /** Runs the queued calls one by one until the queue is empty, then releases the claim. For the claimer. */
    public void drain() {
        runner = Thread.currentThread();
        try {
            while (true) {
                Runnable next;
                synchronized (calls) {
                    next = calls.poll();
                    if (next == null) {
                        draining = false;
                        return;
                    }
                }
                try {
                    next.run();
                } catch (RuntimeException | Error e) {
                    LOG.error("a call of {} threw; later calls still run", owner, e);
                }
            }
        } finally {
            runner = null;
        }
    }

    /** {@return whether nothing is queued and no drain is claimed} */
    public boolean isIdle() {
        synchronized (calls) {
            return !draining && calls.isEmpty();
        }
    }

    /** {@return whether the calling thread is running one of the queue's calls right now} */
    public boolean isDraining() {
        return runner == Thread.currentThread();
    }
}

package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.internal.WakeUps;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The contention engine's speed paths, all in one place. Each saves thread hand-offs or requests
 * on the common path; none is needed for correctness, and {@link Attempt} reads the same without
 * them (steps on a serial executor, replies through the client's async executor, every hold's node
 * watched at once).
 *
 * <ol>
 *   <li><b>Replies handled on ZooKeeper's thread</b> ({@link #repliesInPlace}, {@link #handOver}):
 *       the engine's replies and watch events complete on ZooKeeper's event thread, where they
 *       only hand the next step over, instead of hopping through the client's async and event
 *       executors first.</li>
 *   <li><b>Caller-thread stepping</b> ({@link CallerThread}): a blocking acquisition runs its steps
 *       on the thread that waits for it, so a reply costs one wake-up of that thread, as with
 *       ZooKeeper's own blocking calls.</li>
 *   <li><b>The delayed watch of holds granted at the first look</b> ({@link LateWatches}): an
 *       uncontended hold's node is watched only once the hold has lasted {@link LateWatches#DELAY}.</li>
 * </ol>
 *
 * <p>What they gain, measured with the lock benchmark ({@code benchmarks.jar locks}, see
 * docs/performance.md#locks; 2-core machine, 3 fsyncing servers). Paths 1 and 2 came together,
 * with the listing pipelined behind the create: uncontended acquire-and-release went from
 * 0.86–0.88 of the raw ZooKeeper cycle (two quiet runs) to 0.98 (two runs), that is +11–14%;
 * contended hand-offs stayed at parity with Curator (0.96–0.98x before, 0.93–0.99x after). Path
 * 3: the watch's request, and its event at our own delete, cost 6–9% of an uncontended
 * acquire-and-release. Gathering them here (fifth session of 2026-11-26) changed no measured
 * number: see docs/performance.md#locks.
 */
final class SpeedPaths {
    private SpeedPaths() {
    }

    /**
     * Path 1: {@code client} as the engine's requests see it: replies complete on ZooKeeper's event
     * thread (never hand such a future to user code, see {@link WakeUps}).
     */
    static BatonClient repliesInPlace(BatonClient client) {
        return WakeUps.repliesInPlace(client);
    }

    /**
     * Path 1: runs {@code step} on {@code steps} once {@code reply} (completing on ZooKeeper's thread)
     * completes. A reply that failed because the client is closed goes to {@code closed} where it
     * arrives: a closed client's executor no longer runs steps, so handing it over would leave the
     * attempt pending forever.
     */
    static <T> void handOver(CompletableFuture<T> reply, Executor steps, Consumer<ClientClosedException> closed,
                             BiConsumer<T, Throwable> step) {
        reply.whenComplete((value, e) -> {
            if (e != null && Failures.unwrap(e) instanceof ClientClosedException closedClient) {
                closed.accept(closedClient);
                return;
            }
            steps.execute(() -> step.accept(value, e));
        });
    }

    /** Path 1: a watcher called on ZooKeeper's event thread that only hands the event to {@code steps}. */
    static Watcher handOver(Executor steps, Watcher step) {
        return (WakeUps.DirectWatcher) event -> steps.execute(() -> step.process(event));
    }

    /**
     * Path 2: the executor of a blocking acquisition's steps, which the thread that waits for the
     * acquisition runs itself. A reply or watch event only queues the next step and wakes that
     * thread, while the wait keeps its deadline and stays interruptible.
     *
     * <p>Once the caller stops waiting ({@link #close}), steps still queued and any that arrive
     * later (the late reply of a create to give back, say) run on {@code afterwards}, which must be
     * serial.
     */
    static final class CallerThread implements Executor {
        private static final Logger LOG = LoggerFactory.getLogger(CallerThread.class);

        private final Thread caller = Thread.currentThread();
        private final Executor afterwards;
        private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
        private boolean closed;

        CallerThread(Executor afterwards) {
            this.afterwards = afterwards;
        }

        @Override
        public void execute(Runnable step) {
            synchronized (this) {
                if (!closed) {
                    queue.add(step);
                    LockSupport.unpark(caller);
                    return;
                }
            }
            afterwards.execute(step);
        }

        /**
         * Runs steps on the calling thread (the one that made this) until {@code done} says so.
         *
         * @param deadline when to give up ({@link Deadline#none()}: never)
         * @return false if the deadline passed first
         */
        boolean runUntil(BooleanSupplier done, Deadline deadline) throws InterruptedException {
            while (true) {
                Runnable next;
                synchronized (this) {
                    next = queue.poll();
                }
                if (next != null) {
                    try {
                        next.run();
                    } catch (RuntimeException e) {
                        LOG.error("a step of an acquisition threw; later ones still run", e);
                    }
                    continue;
                }
                if (done.getAsBoolean()) {
                    return true;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (deadline.isNone()) {
                    LockSupport.park(this);
                } else {
                    long left = deadline.remainingNanos();
                    if (left <= 0) {
                        return false;
                    }
                    LockSupport.parkNanos(this, left);
                }
            }
        }

        /** The caller stops running steps: what is queued, and whatever comes later, goes to {@code afterwards}. */
        void close() {
            List<Runnable> left;
            synchronized (this) {
                closed = true;
                left = new ArrayList<>(queue);
                queue.clear();
            }
            left.forEach(afterwards::execute);
        }
    }

    /**
     * Path 3: sets the node watches of holds granted at the first look once they have lasted
     * {@link #DELAY}. Most lock holds are shorter and never pay for the watch; a deletion in the
     * first moments of a longer one is noticed then (the watch's request finds the node gone). The
     * rest of a hold's watching (session, connection state, leader contact) starts at once. One
     * timer per engine runs at a time, whatever the number of holds: a hold that ends first is
     * skipped when its turn comes (its watch has no listener).
     */
    static final class LateWatches {
        /** How long a hold granted at the first look goes without its own node watched. */
        static final Duration DELAY = Duration.ofMillis(50);

        private record Late(OwnNodeWatch watch, long due) {
        }

        private final Executor executor;
        private final ArrayDeque<Late> queue = new ArrayDeque<>();
        private boolean timing;

        LateWatches(Executor executor) {
            this.executor = executor;
        }

        void add(OwnNodeWatch watch) {
            boolean start;
            synchronized (this) {
                // the delay is constant, so the queue stays in order of due time; it is read on the
                // system clock, not the client's ticker: the real-time timer that wakes due() reads it too
                queue.add(new Late(watch, System.nanoTime() + DELAY.toNanos()));
                start = !timing;
                timing = true;
            }
            if (start) {
                wakeIn(DELAY.toNanos());
            }
        }

        private void wakeIn(long nanos) {
            CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS, executor).execute(this::due);
        }

        private void due() {
            List<OwnNodeWatch> due = new ArrayList<>();
            long next;
            synchronized (this) {
                long now = System.nanoTime();
                while (!queue.isEmpty() && queue.peek().due() - now <= 0) {
                    due.add(queue.poll().watch());
                }
                next = queue.isEmpty() ? -1 : queue.peek().due() - now;
                timing = next >= 0;
            }
            if (next >= 0) {
                wakeIn(next);
            }
            due.forEach(OwnNodeWatch::armIfWanted);
        }
    }
}

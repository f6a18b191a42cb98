package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.Failures;
import dev.baton.framework.internal.WakeUps;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.zookeeper.Watcher;

/**
 * The contention engine's speed paths, all in one place. Each saves thread hand-offs or requests
 * on the common path; none is needed for correctness, and {@link Attempt} reads the same without
 * them (replies through the client's async executor, every hold's node watched at once).
 *
 * <ol>
 *   <li><b>Replies handled on ZooKeeper's thread</b> ({@link #repliesInPlace}, the two
 *       {@code handOver}s): the engine's replies and watch events complete on ZooKeeper's event
 *       thread, where they only hand the next step over, instead of hopping through the client's
 *       async and event executors first.</li>
 *   <li><b>The delayed watch of holds granted at the first look</b> ({@link LateWatches}): an
 *       uncontended hold's node is watched only once the hold has lasted {@link LateWatches#DELAY}.</li>
 * </ol>
 *
 * <p>What they gain, measured with the lock benchmark ({@code benchmarks.jar locks 3}, see
 * docs/performance.md#locks) on 2026-11-27, each path switched off in a jar of its own and run
 * beside the jar with all on, three rounds, on the shared 2-core machine (load average 10–16, so
 * rates swing by ±30% between runs; the steady measure is the uncontended p50 cycle over
 * Curator's, the two taking turns cycle by cycle). With all paths on: 1.02, 0.99, 0.99.
 * Path 1 off: 1.00, 1.04, 1.04 (about 3% slower in two rounds of three); 8 threads of one client
 * fell from 1.5–1.8x Curator's rate to 1.3–1.5x, 8 contenders were lower in two rounds of three:
 * a small gain, each measure within the noise, most moving the same way. Path 2 off: 1.08,
 * 1.08, 1.08 (8% slower: the watch's request, and its event at our own delete, on a cycle of three
 * requests).
 *
 * <p>A third path, a blocking acquisition running its steps on the waiting thread (so a reply cost
 * one wake-up of that thread), was removed on that measurement: with it off the uncontended p50
 * ratio was 1.01, 0.98, 0.99 and the rates were no lower, in every section.
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
     * Path 2: sets the node watches of holds granted at the first look once they have lasted
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

package dev.baton.framework.contention;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Sets the node watches of holds granted at the first look once they have lasted {@link #DELAY}
 * (see {@link Holding} for why). One timer per engine runs at a time, whatever the number of
 * holds: a hold that ends first is skipped when its turn comes (its watch has no listener).
 */
final class LateWatches {
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
            // the delay is constant, so the queue stays in order of due time
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

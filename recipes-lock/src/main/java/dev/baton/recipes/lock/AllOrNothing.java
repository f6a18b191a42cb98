package dev.baton.recipes.lock;

import dev.baton.framework.Failures;
import dev.baton.framework.Timeouts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Acquires several things in order within one time budget, or none: the multi-lock over its
 * locks, a semaphore over several leases. Each step gets what is left of the budget (once it is
 * spent, a step looks once instead of waiting); when a step times out or fails, or the whole is
 * cancelled, what was taken is given back.
 */
final class AllOrNothing<T> {
    private final List<Function<Duration, CompletableFuture<T>>> steps;
    private final Consumer<T> giveBack;
    private final LongSupplier clock;
    private final long deadline;
    private final boolean unlimited;
    private final CompletableFuture<List<T>> result = new CompletableFuture<>();
    private final List<T> taken = new ArrayList<>();
    private CompletableFuture<T> current;

    private AllOrNothing(List<Function<Duration, CompletableFuture<T>>> steps, Duration timeout, Consumer<T> giveBack,
                         LongSupplier clock) {
        this.steps = List.copyOf(steps);
        this.giveBack = giveBack;
        this.clock = clock;
        this.unlimited = timeout == null;
        this.deadline = unlimited ? 0 : clock.getAsLong() + Timeouts.nanos(timeout);
    }

    /**
     * Runs {@code steps} in order; each completes with what it took, or null on timeout.
     *
     * @return every step's result in order, or null when the budget ran out; cancelling it
     *     cancels the step under way and gives back what was taken
     */
    static <T> CompletableFuture<List<T>> acquire(List<Function<Duration, CompletableFuture<T>>> steps, Duration timeout,
                                                  Consumer<T> giveBack) {
        return acquire(steps, timeout, giveBack, System::nanoTime);
    }

    /** {@link #acquire(List, Duration, Consumer)} on {@code clock} (nanoseconds, monotonic): tests pass a fake one. */
    static <T> CompletableFuture<List<T>> acquire(List<Function<Duration, CompletableFuture<T>>> steps, Duration timeout,
                                                  Consumer<T> giveBack, LongSupplier clock) {
        AllOrNothing<T> run = new AllOrNothing<>(steps, timeout, giveBack, clock);
        run.result.whenComplete((all, e) -> {
            if (all == null) {
                run.abandon();
            }
        });
        run.next();
        return run.result;
    }

    private void next() {
        CompletableFuture<T> step;
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            if (taken.size() == steps.size()) {
                result.complete(List.copyOf(taken));
                return;
            }
            step = steps.get(taken.size()).apply(remaining());
            current = step;
        }
        step.whenComplete((value, e) -> {
            if (e != null) {
                result.completeExceptionally(Failures.unwrap(e));
            } else if (value == null) {
                result.complete(null);
            } else if (keep(value)) {
                next();
            } else {
                giveBack.accept(value);
            }
        });
    }

    private synchronized boolean keep(T value) {
        if (result.isDone()) {
            return false;
        }
        taken.add(value);
        return true;
    }

    private Duration remaining() {
        if (unlimited) {
            return null;
        }
        long left = deadline - clock.getAsLong();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    /** Timed out, failed or cancelled: stop the step under way and give back what was taken. */
    private void abandon() {
        List<T> toGiveBack;
        CompletableFuture<T> inFlight;
        synchronized (this) {
            toGiveBack = new ArrayList<>(taken);
            taken.clear();
            inFlight = current;
        }
        if (inFlight != null) {
            inFlight.cancel(true);
        }
        for (int i = toGiveBack.size() - 1; i >= 0; i--) {
            giveBack.accept(toGiveBack.get(i));
        }
    }
}

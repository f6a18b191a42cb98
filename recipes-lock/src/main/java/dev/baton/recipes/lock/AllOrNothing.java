package dev.baton.recipes.lock;

import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Acquires several things in order before one deadline, or none: the multi-lock over its
 * locks, a semaphore over several leases. Each step runs until that deadline (once it has passed,
 * a step looks once instead of waiting); when a step times out or fails, or the whole is
 * cancelled, what was taken is given back.
 */
final class AllOrNothing<T> {
    private final List<Function<Deadline, CompletableFuture<T>>> steps;
    private final Consumer<T> giveBack;
    private final Deadline deadline;
    private final CompletableFuture<List<T>> result = new CompletableFuture<>();
    private final List<T> taken = new ArrayList<>();
    private CompletableFuture<T> current;

    private AllOrNothing(List<Function<Deadline, CompletableFuture<T>>> steps, Deadline deadline, Consumer<T> giveBack) {
        this.steps = List.copyOf(steps);
        this.giveBack = giveBack;
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    /**
     * Runs {@code steps} in order, each until the same {@code deadline}; each completes with what it
     * took, or null on timeout.
     *
     * @return every step's result in order, or null when the deadline passed first; cancelling it
     *     cancels the step under way and gives back what was taken
     */
    static <T> CompletableFuture<List<T>> acquire(List<Function<Deadline, CompletableFuture<T>>> steps, Deadline deadline,
                                                  Consumer<T> giveBack) {
        AllOrNothing<T> run = new AllOrNothing<>(steps, deadline, giveBack);
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
            step = steps.get(taken.size()).apply(deadline);
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

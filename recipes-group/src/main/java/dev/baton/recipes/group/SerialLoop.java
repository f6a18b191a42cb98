package dev.baton.recipes.group;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs an asynchronous step whenever asked, one at a time: a request while a step runs makes
 * exactly one more run after it (requests in between coalesce), so a step always starts from the
 * latest state and never overlaps another. What keeps a {@link PersistentNode}'s node in place.
 */
final class SerialLoop {
    private final Executor executor;
    private final Supplier<CompletableFuture<Void>> step;
    private final Consumer<Throwable> onFailure;

    // guarded by this
    private boolean running;
    private boolean again;
    private boolean stopped;
    private CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);

    /**
     * @param step one run; its future completes when the run is over
     * @param onFailure told of a run that failed (the loop goes on with the next request)
     */
    SerialLoop(Executor executor, Supplier<CompletableFuture<Void>> step, Consumer<Throwable> onFailure) {
        this.executor = executor;
        this.step = step;
        this.onFailure = onFailure;
    }

    /** Runs the step soon: now if none runs, else once more after the one running. */
    void request() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            if (running) {
                again = true;
                return;
            }
            running = true;
            idle = new CompletableFuture<>();
        }
        executor.execute(this::runOnce);
    }

    /** Runs no more steps; the future completes once the step in flight, if any, is over. */
    synchronized CompletableFuture<Void> stop() {
        stopped = true;
        return idle;
    }

    private void runOnce() {
        CompletableFuture<Void> run;
        try {
            run = step.get();
        } catch (RuntimeException e) {
            run = CompletableFuture.failedFuture(e);
        }
        run.whenComplete((v, e) -> {
            if (e != null) {
                onFailure.accept(e);
            }
            CompletableFuture<Void> finished = null;
            synchronized (this) {
                boolean more = again && !stopped;
                again = false;
                if (!more) {
                    running = false;
                    finished = idle;
                }
            }
            if (finished != null) {
                finished.complete(null);
            } else {
                executor.execute(this::runOnce);
            }
        });
    }
}

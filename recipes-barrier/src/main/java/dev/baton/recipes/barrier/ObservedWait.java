package dev.baton.recipes.barrier;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.Blocking;
import dev.baton.framework.BatonObserver.WaitOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Reports a barrier wait to the client's {@link BatonObserver}: its start, then how long it took
 * and how it ended. The wait is {@linkplain Blocking#managed managed}, so a caller's continuation on a
 * fork-join pool (the client's own) may wait on a barrier without stalling that pool. The observer read at the start is the one told of the end, so an observer
 * added or removed meanwhile never sees an end without its start. {@link #async} reports an
 * asynchronous wait the same way, when its future completes (a cancelled one as FAILED).
 */
final class ObservedWait {
    /** A wait: true if the barrier was passed, false if the timeout came first. */
    @FunctionalInterface
    interface Wait {
        boolean await() throws InterruptedException;
    }

    private ObservedWait() {
    }

    static boolean run(BatonClient client, String recipe, String path, Wait wait) throws InterruptedException {
        // every barrier wait, managed: it may run in a continuation on the client's fork-join pool
        return Blocking.managed(() -> observe(client, recipe, path, wait));
    }

    private static boolean observe(BatonClient client, String recipe, String path, Wait wait) throws InterruptedException {
        BatonObserver observer = client.observer();
        if (observer == BatonObserver.NONE) {
            return wait.await(); // nobody listens: no clock reads
        }
        long start = client.ticker().read();
        observer.barrierWaitStarted(recipe, path);
        WaitOutcome outcome = WaitOutcome.FAILED;
        try {
            boolean passed = wait.await();
            outcome = passed ? WaitOutcome.PASSED : WaitOutcome.TIMED_OUT;
            return passed;
        } finally {
            observer.barrierWaitFinished(recipe, path, outcome, client.ticker().read() - start);
        }
    }

    /** Reports the wait that {@code start} starts; returns its future itself, so cancelling it cancels the wait. */
    static CompletableFuture<Boolean> async(BatonClient client, String recipe, String path,
                                            Supplier<CompletableFuture<Boolean>> start) {
        BatonObserver observer = client.observer();
        if (observer == BatonObserver.NONE) {
            return start.get();
        }
        long begun = client.ticker().read();
        observer.barrierWaitStarted(recipe, path);
        CompletableFuture<Boolean> wait = start.get();
        wait.whenComplete((passed, e) -> observer.barrierWaitFinished(recipe, path,
            e != null ? WaitOutcome.FAILED : passed ? WaitOutcome.PASSED : WaitOutcome.TIMED_OUT,
            client.ticker().read() - begun));
        return wait;
    }
}

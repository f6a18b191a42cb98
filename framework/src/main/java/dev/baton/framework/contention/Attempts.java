package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.Timeouts;
import dev.baton.framework.internal.LeaderContact;
import dev.baton.framework.internal.SerialExecutor;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The two ways to run an {@link Attempt}: on which thread its steps run, when it times out, and what
 * becomes of a grant nobody waits for any more. The attempt itself (what it does, phase by phase) knows
 * none of this: it runs its steps on the executor it is given and completes its result; whoever
 * completes that result first (the hold, a timer, a cancel) decides the outcome.
 *
 * <p>Both keep the client's confirmed-contact clock fresh while the attempt waits, so that a hold
 * granted after a long wait starts with a recent round trip to the leader behind it (see
 * {@link Holding}).
 */
final class Attempts {
    private Attempts() {
    }

    /**
     * Runs an attempt whose steps run one at a time on the client's async executor while no thread
     * waits; the result completes with null when {@code timeout} passes first, and cancelling it
     * abandons the attempt.
     */
    static <R> CompletableFuture<R> async(Contention engine, byte[] data, Duration timeout,
                                          Function<Attempt.Granted, R> grant, Consumer<R> discard) {
        BatonClient client = engine.client();
        Attempt<R> attempt = new Attempt<>(engine, data, timeout, new SerialExecutor(client.asyncExecutor()), grant, discard);
        CompletableFuture<R> result = attempt.result();
        LeaderContact.Keep fresh = LeaderContact.keepFresh(client);
        result.whenComplete((r, e) -> fresh.close());
        if (timeout != null && !timeout.isZero()) {
            CompletableFuture.delayedExecutor(Timeouts.nanos(timeout), TimeUnit.NANOSECONDS, client.asyncExecutor())
                .execute(() -> result.complete(null));
        }
        attempt.begin();
        return result;
    }

    /**
     * Runs an attempt whose steps the calling thread runs while it waits ({@link SpeedPaths.CallerThread}).
     * Returns what {@code grant} made, or null on timeout; an interrupt abandons the attempt, hands
     * what was granted just then to {@code giveBack}, and is rethrown.
     */
    static <R> R blocking(Contention engine, byte[] data, Duration timeout, Function<Attempt.Granted, R> grant,
                          Consumer<R> giveBack) throws InterruptedException {
        SpeedPaths.CallerThread steps = new SpeedPaths.CallerThread(new SerialExecutor(engine.client().asyncExecutor()));
        Attempt<R> attempt = new Attempt<>(engine, data, timeout, steps, grant, giveBack);
        CompletableFuture<R> result = attempt.result();
        // a zero timeout ends the attempt itself after one look; the deadline reads the client's clock
        Deadline deadline = timeout == null || timeout.isZero() ? Deadline.none() : Deadline.after(timeout, engine.client().ticker());
        try (LeaderContact.Keep fresh = LeaderContact.keepFresh(engine.client())) {
            attempt.begin();
            if (!steps.runUntil(result::isDone, deadline)) {
                result.complete(null); // timed out: abandoning deletes the node (unless it held just now)
            }
        } catch (InterruptedException e) {
            if (!result.cancel(true) && !result.isCompletedExceptionally()) {
                R arrived = result.getNow(null);
                if (arrived != null) {
                    giveBack.accept(arrived);
                }
            }
            throw e;
        } finally {
            steps.close();
        }
        try {
            return result.join();
        } catch (CompletionException e) {
            throw Failures.rethrow(e.getCause());
        }
    }
}

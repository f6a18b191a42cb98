package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Timeouts;
import dev.baton.framework.internal.Futures;
import dev.baton.framework.internal.SerialExecutor;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The two ways {@link Contention} drives an {@link Attempt}: {@link #async}, whose steps run one
 * at a time on the client's async executor while no thread waits, and {@link #blocking}, whose
 * steps the waiting caller runs itself ({@link CallerSteps}), so that a reply or an event only
 * wakes it. Each owns the attempt's deadline: the async form completes the result with null when
 * it passes, the blocking form stops waiting; either way the attempt abandons its node.
 */
final class AttemptRunners {
    private AttemptRunners() {
    }

    /** An attempt whose steps run, one at a time, on the client's async executor. */
    static <R> CompletableFuture<R> async(Contention engine, byte[] data, Duration timeout,
                                          Function<Attempt.Granted, R> grant, Consumer<R> discard) {
        BatonClient client = engine.client();
        Attempt<R> attempt =
            new Attempt<>(engine, data, timeout, new SerialExecutor(client.asyncExecutor()), grant, discard);
        if (timeout != null && !timeout.isZero()) {
            CompletableFuture.delayedExecutor(Timeouts.nanos(timeout), TimeUnit.NANOSECONDS, client.asyncExecutor())
                .execute(() -> attempt.result.complete(null));
        }
        attempt.begin();
        return attempt.result;
    }

    /**
     * An attempt whose steps the calling thread runs while it waits: a reply or an event only
     * wakes it. {@code giveBack} returns what was granted just as an interrupt arrived.
     */
    static <R> R blocking(Contention engine, byte[] data, Duration timeout, Function<Attempt.Granted, R> grant,
                          Consumer<R> giveBack) throws InterruptedException {
        CallerSteps steps = new CallerSteps(new SerialExecutor(engine.client().asyncExecutor()));
        Attempt<R> attempt = new Attempt<>(engine, data, timeout, steps, grant, giveBack);
        Long deadline = timeout == null || timeout.isZero() ? null : System.nanoTime() + Timeouts.nanos(timeout);
        try {
            attempt.begin();
            if (!steps.runUntil(attempt.result::isDone, deadline)) {
                attempt.result.complete(null); // timed out: abandoning deletes the node (unless it held just now)
            }
        } catch (InterruptedException e) {
            if (!attempt.result.cancel(true) && !attempt.result.isCompletedExceptionally()) {
                R arrived = attempt.result.getNow(null);
                if (arrived != null) {
                    giveBack.accept(arrived);
                }
            }
            throw e;
        } finally {
            steps.close();
        }
        try {
            return attempt.result.join();
        } catch (CompletionException e) {
            throw Futures.rethrow(e.getCause());
        }
    }
}

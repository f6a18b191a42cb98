package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Timeouts;
import dev.baton.framework.internal.Futures;
import dev.baton.framework.internal.LeaderContact;
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
 *
 * <p>While an attempt runs, the client keeps its confirmed-contact clock fresh
 * ({@code LeaderContact}), so that a hold granted after a long wait starts with a recent round
 * trip to the ensemble's leader behind it, as the {@link Holding} that watches it requires.
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
        LeaderContact.Keep fresh = LeaderContact.keepFresh(client);
        attempt.result.whenComplete((r, e) -> fresh.close());
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
        try (LeaderContact.Keep fresh = LeaderContact.keepFresh(engine.client())) {
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

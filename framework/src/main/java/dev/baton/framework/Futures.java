package dev.baton.framework;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waiting on the client's futures from blocking code: the one {@code await} of the framework and
 * the recipes, with its variants for futures that hand over something owned (a hold, a lease) and for
 * a release's delete. A failure comes out as itself ({@link Failures#rethrow}): a {@link BatonException}
 * stays the {@link BatonException} the operation raised, never wrapped in an
 * {@link ExecutionException} or an {@link IllegalStateException}.
 *
 * <p>Owned values: an acquisition's future completes with something the caller must give back (a hold
 * whose node must be deleted). {@link #awaitOrCancel} and {@link #mapOrGiveBack} make sure such a value
 * is never dropped on the floor when the caller stops waiting for it: a value that arrives after an
 * interrupt or a cancel goes to the {@code giveBack} the caller passed.
 *
 * <pre>{@code
 * NodeData data = Futures.await(client.getData().forPathWithStatAsync(path));
 * Hold hold = Futures.awaitOrCancel(acquireHold(timeout), Hold::delete);
 * }</pre>
 */
public final class Futures {
    private static final Logger LOG = LoggerFactory.getLogger(Futures.class);

    private Futures() {
    }

    /**
     * Waits for {@code future} and returns its value. An interrupt is thrown and leaves the future
     * alone: cancelling it would not stop an operation the server may already have applied.
     *
     * @param <T> the future's value
     * @param future what to wait for
     * @return the future's value
     * @throws InterruptedException if the calling thread is interrupted while it waits
     * @throws BatonException (or another unchecked exception) the future failed with, unwrapped; a
     *     cancelled future as a {@link BatonException} saying so
     */
    public static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw Failures.rethrow(e.getCause());
        } catch (CancellationException e) {
            throw new BatonException("cancelled", e);
        }
    }

    /**
     * Waits for a future the caller started and may abandon (an acquisition): an interrupt cancels it, so
     * that nothing of it is left, and is rethrown; a value that arrived anyway is handed to
     * {@code giveBack}.
     *
     * @param <T> the future's value
     * @param future the acquisition the caller started
     * @param giveBack gives back a value that arrived after an interrupt
     * @return the future's value
     * @throws InterruptedException if the calling thread is interrupted while it waits (the future is
     *     cancelled)
     * @throws BatonException (or another unchecked exception) the future failed with, unwrapped; a
     *     cancelled future as a {@link BatonException} saying so
     */
    public static <T> T awaitOrCancel(CompletableFuture<T> future, Consumer<? super T> giveBack) throws InterruptedException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            // not cancelled: it completed first, with a value to give back or with a failure the
            // interrupt takes precedence over (getNow would throw that failure raw)
            if (!future.cancel(true) && !future.isCompletedExceptionally()) {
                T arrived = future.getNow(null);
                if (arrived != null) {
                    giveBack.accept(arrived);
                }
            }
            throw e;
        } catch (ExecutionException e) {
            throw Failures.rethrow(e.getCause());
        } catch (CancellationException e) {
            throw new BatonException("the acquisition was cancelled", e);
        }
    }

    /**
     * {@link #mapOrGiveBack(CompletableFuture, Function, Consumer, Consumer)} for a mapping that owns
     * nothing of its own (a wrapper whose only resource is the value it wraps).
     *
     * @param <T> what {@code source} completes with
     * @param <R> what the result completes with
     * @param source the acquisition
     * @param fn maps its value (without side effects)
     * @param giveBack gives back a value that arrives after the result was cancelled
     * @return the mapped future
     */
    public static <T, R> CompletableFuture<R> mapOrGiveBack(CompletableFuture<? extends T> source,
                                                            Function<? super T, ? extends R> fn,
                                                            Consumer<? super T> giveBack) {
        return mapOrGiveBack(source, fn, giveBack, mapped -> { });
    }

    /**
     * {@code source} mapped by {@code fn} (a null value stays null), where cancelling the result cancels
     * {@code source}, a value that arrives after the result was cancelled (or whose mapping failed) is
     * handed to {@code giveBack}, and a mapped value made while the result was being cancelled to
     * {@code giveBackMapped} (before its source value goes to {@code giveBack}). A failure of
     * {@code source} fails the result, unwrapped.
     *
     * @param <T> what {@code source} completes with
     * @param <R> what the result completes with
     * @param source the acquisition
     * @param fn maps its value
     * @param giveBack gives back a value that arrives after the result was cancelled
     * @param giveBackMapped gives back a mapped value made while the result was being cancelled
     * @return the mapped future
     */
    public static <T, R> CompletableFuture<R> mapOrGiveBack(CompletableFuture<? extends T> source,
                                                            Function<? super T, ? extends R> fn,
                                                            Consumer<? super T> giveBack,
                                                            Consumer<? super R> giveBackMapped) {
        CompletableFuture<R> result = new CompletableFuture<>();
        source.whenComplete((value, e) -> {
            if (e != null) {
                result.completeExceptionally(Failures.unwrap(e));
                return;
            }
            if (value == null) {
                result.complete(null);
                return;
            }
            if (result.isDone()) {
                giveBack.accept(value);
                return;
            }
            R mapped;
            try {
                mapped = fn.apply(value);
            } catch (RuntimeException | Error failure) {
                giveBack.accept(value);
                result.completeExceptionally(failure);
                return;
            }
            if (!result.complete(mapped)) {
                giveBackMapped.accept(mapped);
                giveBack.accept(value);
            }
        });
        result.whenComplete((value, e) -> {
            if (result.isCancelled()) {
                source.cancel(true);
            }
        });
        return result;
    }

    /**
     * The first value of repeated acquisitions that is still good when it arrives: each value
     * {@code valid} refuses (a hold lost between its grant and its hand-out) goes to
     * {@code giveBack}, and {@code attempt} starts a new acquisition (the caller's deadline, which
     * {@code attempt} captures, bounds them all). A null value (a timeout) and a failure end it as
     * they are, the failure unwrapped. Cancelling the result cancels the acquisition in flight; a
     * value that arrives after the result was cancelled goes to {@code giveBack} too.
     *
     * @param <T> what an acquisition completes with
     * @param attempt starts one acquisition
     * @param valid whether a value may be handed out
     * @param giveBack gives back a value that is not handed out
     * @return the first valid value, or null on timeout
     */
    public static <T> CompletableFuture<T> untilValid(Supplier<? extends CompletableFuture<? extends T>> attempt,
                                                      Predicate<? super T> valid, Consumer<? super T> giveBack) {
        CompletableFuture<T> result = new CompletableFuture<>();
        nextValid(attempt, valid, giveBack, result);
        return result;
    }

    private static <T> void nextValid(Supplier<? extends CompletableFuture<? extends T>> attempt, Predicate<? super T> valid,
                                      Consumer<? super T> giveBack, CompletableFuture<T> result) {
        CompletableFuture<? extends T> current = attempt.get();
        result.whenComplete((value, e) -> {
            if (result.isCancelled()) {
                current.cancel(true);
            }
        });
        current.whenComplete((value, e) -> {
            if (e != null) {
                result.completeExceptionally(Failures.unwrap(e));
            } else if (value == null || valid.test(value)) {
                if (!result.complete(value) && value != null) {
                    giveBack.accept(value);
                }
            } else {
                giveBack.accept(value);
                if (!result.isDone()) {
                    nextValid(attempt, valid, giveBack, result);
                }
            }
        });
    }

    /**
     * Waits for a release's delete of a node in the client's session, without being interruptible (an
     * interrupt is kept for the caller to see): a release is short, and leaving early would hide whether
     * it worked. A failure that only means the node goes later ({@link Failures#goesInBackground}) is
     * logged, not thrown: the guaranteed delete finishes in the background, or the node went with its
     * session. Callers skip the wait while disconnected, where it could not finish soon.
     *
     * @param delete the release's delete
     * @param what the released thing, for the log
     * @throws BatonException (or another unchecked exception) any other failure of the delete, unwrapped
     */
    public static void awaitDelete(CompletableFuture<?> delete, String what) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    delete.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = Failures.unwrap(e.getCause());
                    if (Failures.goesInBackground(cause)) {
                        LOG.debug("release of {} continues in the background: {}", what, cause.toString());
                        return;
                    }
                    throw Failures.rethrow(cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * {@code future}, with "no such node" read as a null result: for steps whose node may be gone by
     * the time they run, where gone is the answer. Every other failure passes through, unwrapped.
     *
     * @param <T> the future's value
     * @param future the step
     * @return {@code future}'s value, null if the node was not there
     */
    public static <T> CompletableFuture<T> nullIfNoNode(CompletableFuture<T> future) {
        return future.exceptionallyCompose(e -> Failures.unwrap(e) instanceof NoNodeException
            ? CompletableFuture.completedFuture(null)
            : CompletableFuture.failedFuture(Failures.unwrap(e)));
    }
}

package dev.baton.framework.observe;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.BatonObserver.AcquireOutcome;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.Ticker;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.contention.WrappedHold;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Reports a lock-like recipe's acquisitions and holds to its client's {@link BatonObserver}: the
 * wait and its outcome, then how long the hold lasted and whether it was lost.
 *
 * <p>A recipe passes its acquisition through {@link #track} (asynchronous) or
 * {@link #trackBlocking} and gets back the same hold wrapped in one that reports its end: the first
 * of its {@link Hold#delete()} (a release) or its loss. While the client has no observer both
 * return what they were given, untouched: no wrapper, no timing, no allocation.
 *
 * <p>Cancellation passes through: cancelling the returned future cancels the recipe's
 * acquisition, and a hold that arrives after the cancel is deleted.
 *
 * <p>A hold that is already lost when it arrives (the line reached it as the connection dropped or
 * the session ended) is not the caller's: the forms that take a way to start an attempt
 * ({@link #track(BatonClient, String, String, Supplier)}, {@link #trackBlocking}) give it back and
 * start another within the same wait, so the observer hears one wait and one acquisition, and no
 * loss of a hold nobody got.
 */
public final class ObservedHolds {
    /** A blocking acquisition: the hold, or null on timeout. */
    @FunctionalInterface
    public interface BlockingAcquisition {
        /**
         * Acquires.
         *
         * @return the hold, or null if the timeout passed first
         * @throws InterruptedException if the calling thread is interrupted while it waits
         */
        Hold acquire() throws InterruptedException;
    }

    private ObservedHolds() {
    }

    /**
     * Reports the acquisition of recipe {@code recipe} at {@code path} that {@code attempts} makes:
     * a hold already lost when it arrives is given back and {@code attempts} asked again, all in
     * one wait (the attempts share their deadline, which the recipe gave them).
     *
     * @param client the recipe's client, whose observer is told
     * @param recipe the recipe's kind, such as {@code "mutex"}
     * @param path the recipe's path
     * @param attempts starts one acquisition each time it is called: completes with the hold, or null on timeout
     * @return a future of the first hold that was valid when it arrived (reporting its end if somebody observes)
     */
    public static CompletableFuture<Hold> track(BatonClient client, String recipe, String path,
                                                Supplier<? extends CompletableFuture<? extends Hold>> attempts) {
        return track(client, recipe, path, Futures.untilValid(attempts, Hold::isValid, ObservedHolds::giveBack));
    }

    /**
     * Reports the acquisition {@code acquiring} of recipe {@code recipe} at {@code path}, once: for
     * an acquisition that cannot be started again (a downgrade); others use
     * {@link #track(BatonClient, String, String, Supplier)}.
     *
     * @param client the recipe's client, whose observer is told
     * @param recipe the recipe's kind, such as {@code "mutex"}
     * @param path the recipe's path
     * @param acquiring the acquisition: completes with the hold, or null on timeout
     * @return {@code acquiring} itself if nobody observes, else a future of the reporting hold
     */
    public static CompletableFuture<Hold> track(BatonClient client, String recipe, String path,
                                                CompletableFuture<? extends Hold> acquiring) {
        BatonObserver observer = client.observer();
        if (observer == BatonObserver.NONE) {
            @SuppressWarnings("unchecked") // read-only use: a future of a Hold subtype is a future of a Hold
            CompletableFuture<Hold> same = (CompletableFuture<Hold>) acquiring;
            return same;
        }
        Wait wait = new Wait(client.ticker(), observer, recipe, path);
        CompletableFuture<Hold> result = new CompletableFuture<>();
        acquiring.whenComplete((hold, e) -> {
            if (e != null) {
                wait.finish(AcquireOutcome.FAILED);
                result.completeExceptionally(Failures.unwrap(e));
            } else if (hold == null) {
                wait.finish(AcquireOutcome.TIMED_OUT);
                result.complete(null);
            } else if (result.isDone()) {
                hold.delete(); // the result was cancelled first: give the hold back
            } else {
                Hold reporting = wait.granted(hold);
                if (!result.complete(reporting)) {
                    endedUnused(reporting); // cancelled while it was being wrapped: report the end, give the hold back once
                    hold.delete();
                }
            }
        });
        result.whenComplete((hold, e) -> {
            if (result.isCancelled()) {
                wait.finish(AcquireOutcome.FAILED);
                acquiring.cancel(true);
            }
        });
        return result;
    }

    /**
     * Reports the blocking acquisition {@code acquisition} of recipe {@code recipe} at {@code path}.
     *
     * @param client the recipe's client, whose observer is told
     * @param recipe the recipe's kind, such as {@code "mutex"}
     * @param path the recipe's path
     * @param acquisition runs the acquisition on the calling thread
     * @return the hold (reporting its end if somebody observes), or null on timeout
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public static Hold trackBlocking(BatonClient client, String recipe, String path, BlockingAcquisition acquisition)
        throws InterruptedException {
        BatonObserver observer = client.observer();
        if (observer == BatonObserver.NONE) {
            return untilValid(acquisition);
        }
        Wait wait = new Wait(client.ticker(), observer, recipe, path);
        Hold hold;
        try {
            hold = untilValid(acquisition);
        } catch (InterruptedException | RuntimeException | Error e) {
            wait.finish(AcquireOutcome.FAILED);
            throw e;
        }
        if (hold == null) {
            wait.finish(AcquireOutcome.TIMED_OUT);
            return null;
        }
        return wait.granted(hold);
    }

    /**
     * {@return the hold {@code hold} reports for, or {@code hold} itself if it is not a reporting
     * wrapper} A recipe that needs its own hold type back (the read/write lock's downgrade reads
     * the write node's ticket) looks through the wrapper with it; without an observer there is
     * none to look through.
     *
     * @param hold a hold that {@link #track} or {@link #trackBlocking} returned, or any other
     */
    public static Hold unwrap(Hold hold) {
        return hold instanceof Reporting reporting ? reporting.hold : hold; // one level: the recipe's own hold under the wrapper
    }

    /** The first hold of {@code acquisition}'s that is valid when it arrives (or null): lost ones are given back. */
    private static Hold untilValid(BlockingAcquisition acquisition) throws InterruptedException {
        while (true) {
            Hold hold = acquisition.acquire();
            if (hold == null || hold.isValid()) {
                return hold;
            }
            giveBack(hold);
        }
    }

    /** A hold nobody is handed ({@link Hold#giveBackUnhanded}): lost on its way, or arrived after a cancel. */
    private static void giveBack(Hold hold) {
        Hold.giveBackUnhanded(hold, hold.nodes());
    }

    private static void endedUnused(Hold hold) {
        if (hold instanceof Reporting reporting) {
            reporting.end(false);
        }
    }

    /** One acquisition being waited for: reports its start at once and its end once. */
    private static final class Wait {
        private final BatonObserver observer;
        private final String recipe;
        private final String path;
        private final Ticker ticker;
        private final long start;
        private final AtomicBoolean finished = new AtomicBoolean();

        Wait(Ticker ticker, BatonObserver observer, String recipe, String path) {
            this.ticker = ticker;
            this.start = ticker.read();
            this.observer = observer;
            this.recipe = recipe;
            this.path = path;
            observer.acquireStarted(recipe, path);
        }

        boolean finish(AcquireOutcome outcome) {
            if (!finished.compareAndSet(false, true)) {
                return false;
            }
            observer.acquireFinished(recipe, path, outcome, ticker.read() - start);
            return true;
        }

        Hold granted(Hold hold) {
            return finish(AcquireOutcome.ACQUIRED) ? new Reporting(hold, ticker, observer, recipe, path) : hold;
        }
    }

    /** A hold that reports its end, once: released (deleted) or lost. */
    private static final class Reporting implements WrappedHold {
        private final Hold hold;
        private final BatonObserver observer;
        private final String recipe;
        private final String path;
        private final Ticker ticker;
        private final long since;
        private final AtomicBoolean ended = new AtomicBoolean();

        Reporting(Hold hold, Ticker ticker, BatonObserver observer, String recipe, String path) {
            this.hold = Objects.requireNonNull(hold, "hold");
            this.ticker = ticker;
            this.since = ticker.read();
            this.observer = observer;
            this.recipe = recipe;
            this.path = path;
            hold.onLost(() -> end(true));
        }

        private void end(boolean lost) {
            if (ended.compareAndSet(false, true)) {
                if (lost) {
                    observer.holdLost(recipe, path);
                }
                observer.holdEnded(recipe, path, ticker.read() - since);
            }
        }

        @Override
        public Hold wrapped() {
            return hold;
        }

        @Override
        public long fencingToken() {
            return hold.fencingToken();
        }

        @Override
        public List<String> nodes() {
            return hold.nodes();
        }

        @Override
        public boolean isValid() {
            return hold.isValid();
        }

        @Override
        public Optional<String> lossReason() {
            return hold.lossReason();
        }

        @Override
        public void onLost(Runnable callback) {
            hold.onLost(callback);
        }

        @Override
        public TransactionBuilder guard(TransactionBuilder transaction) {
            return hold.guard(transaction);
        }

        @Override
        public boolean connected() {
            return hold.connected();
        }

        @Override
        public CompletableFuture<Void> delete() {
            end(false);
            return hold.delete();
        }

        @Override
        public void deleteAndWait(String what) {
            end(false);
            hold.deleteAndWait(what);
        }

        @Override
        public String toString() {
            return hold.toString();
        }
    }
}

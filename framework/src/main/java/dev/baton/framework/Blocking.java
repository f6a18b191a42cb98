package dev.baton.framework;

import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.locks.Lock;

/**
 * Runs a blocking wait so that it cannot starve the fork-join pool it is called from: the one place
 * where Baton's blocking calls tell a pool that they are about to park.
 *
 * <p>Why: a client's futures complete on its {@link BatonClient#asyncExecutor()}, a small
 * {@link ForkJoinPool} (as many threads as cores, at least two) that also runs the contention
 * engine's steps and the recipes' own completions. A caller's {@code thenApply} runs on that pool.
 * Had it called, say, {@code latch.await(timeout)} or {@code queue.take()}, it would park a pool
 * thread with a timed wait the pool knows nothing of; with as many such callers as the pool has
 * threads, nothing else of the client completes, including the very election or take they wait
 * for, until their timeouts (a latch on a path of its own never led: {@code AsyncContinuationTest}).
 * A wait run through {@link #managed} is a {@link ForkJoinPool.ManagedBlocker}: the pool starts or
 * wakes a spare thread for as long as it waits, as {@code CompletableFuture.get} does. Off a
 * fork-join pool it is simply the wait.
 *
 * <p>Caveat: a pool lends at most 256 spare threads. A continuation is still better handed to an
 * executor of the caller's ({@code thenApplyAsync(fn, executor)}), or written with the
 * {@code ...Async} forms; this only keeps a blocking one from stalling the client.
 *
 * <pre>{@code
 * boolean passed = Blocking.managed(() -> ChangeSignal.awaitCondition(client, check, deadline));
 * }</pre>
 */
public final class Blocking {
    private Blocking() {
    }

    /**
     * A wait that may park the calling thread.
     *
     * @param <T> what it returns
     */
    @FunctionalInterface
    public interface Wait<T> {
        /**
         * Waits.
         *
         * @return the wait's result
         * @throws InterruptedException if the waiting thread is interrupted
         */
        T await() throws InterruptedException;
    }

    /**
     * Runs {@code wait} and returns its result; on a fork-join pool's thread, as a managed blocker, so
     * that the pool keeps as many threads running as it had. Its unchecked failures come out as they are.
     *
     * @param <T> what the wait returns
     * @param wait the wait
     * @return what {@code wait} returned
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public static <T> T managed(Wait<T> wait) throws InterruptedException {
        Objects.requireNonNull(wait, "wait");
        if (!(Thread.currentThread() instanceof ForkJoinWorkerThread)) {
            return wait.await();
        }
        Blocker<T> blocker = new Blocker<>(wait);
        ForkJoinPool.managedBlock(blocker);
        return blocker.value;
    }

    /**
     * Takes {@code lock}, waiting for it as a managed wait when another thread holds it: for a lock that
     * is held across a round trip to the servers (one write of a registration at a time, say). On a
     * fork-join pool's thread, a plain {@code lock()} would park the thread where the pool cannot see
     * it; with as many such waiters as the pool has threads, the holder's reply, which needs one of
     * them, never comes. A free lock is taken at once, without asking the pool for anything.
     *
     * <pre>{@code
     * Blocking.lock(entry.lock);
     * try { write(entry); } finally { entry.lock.unlock(); }
     * }</pre>
     *
     * @param lock the lock to take
     * @throws InterruptedException if the calling thread is interrupted while it waits (the lock is
     *     then not held)
     */
    public static void lock(Lock lock) throws InterruptedException {
        Objects.requireNonNull(lock, "lock");
        if (lock.tryLock()) {
            return;
        }
        managed(() -> {
            lock.lockInterruptibly();
            return null;
        });
    }

    /** The wait as the pool sees it: run once, on the calling thread, while a spare thread covers for it. */
    private static final class Blocker<T> implements ForkJoinPool.ManagedBlocker {
        private final Wait<T> wait;
        private boolean done;
        private T value;

        Blocker(Wait<T> wait) {
            this.wait = wait;
        }

        @Override
        public boolean block() throws InterruptedException {
            value = wait.await();
            done = true;
            return true;
        }

        @Override
        public boolean isReleasable() {
            return done;
        }
    }
}

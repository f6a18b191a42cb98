package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Blocking#lock} on a pool shaped like a client's async pool: waiters parked on a lock must
 * leave the pool to the work its holder waits for.
 */
class BlockingLockTest {
    private final ForkJoinPool pool = new ForkJoinPool(2, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);

    @AfterEach
    void shutDown() {
        pool.shutdownNow();
    }

    @Test
    void waitersOnTheLockLeaveThePoolToTheHoldersReply() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        List<CompletableFuture<Void>> callers = new ArrayList<>();
        // more callers than threads, each holding the lock while it waits for a "reply" completed on the pool
        for (int i = 0; i < pool.getParallelism() * 4 + 1; i++) {
            callers.add(CompletableFuture.runAsync(() -> {
                try {
                    Blocking.lock(lock);
                    try {
                        CompletableFuture<Void> reply = new CompletableFuture<>();
                        CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS, pool).execute(() -> reply.complete(null));
                        reply.join();
                    } finally {
                        lock.unlock();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }, pool));
        }
        // with lock.lock() instead: TimeoutException, the replies queued behind parked threads
        CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void anInterruptedWaiterDoesNotTakeTheLock() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        lock.lock();
        try {
            CompletableFuture<Throwable> waiter = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    Blocking.lock(lock);
                    waiter.complete(null);
                } catch (InterruptedException e) {
                    waiter.complete(e);
                }
            });
            t.start();
            t.interrupt();
            assertThat(waiter.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
            assertThat(lock.getHoldCount()).as("held by this thread only").isEqualTo(1);
            assertThat(lock.hasQueuedThreads()).isFalse();
        } finally {
            lock.unlock();
        }
    }

    @Test
    void aNullLockIsRefused() {
        assertThatThrownBy(() -> Blocking.lock(null)).isInstanceOf(NullPointerException.class).hasMessage("lock");
    }
}

package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InvalidPathException;
import dev.baton.framework.TransactionFailedException;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

@EnsembleTest
class InterProcessMutexTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void aHoldAliveWhenItsClientClosesIsToldAtOnceAndItsReleaseSaysSo(BatonClient closing, BatonClient other) throws Exception {
        InterProcessMutex mutex = new InterProcessMutex(closing, "/mutex/closed-under-a-hold");
        LockLease lease = mutex.acquireLease(); // uncontended: its node's watch is not set yet
        List<String> told = new CopyOnWriteArrayList<>();
        lease.onLost(() -> told.add("lost"));

        closing.close();

        await("the hold is told").atMost(WAIT).until(() -> told.size() == 1);
        assertThat(lease.isValid()).isFalse();
        assertThatThrownBy(lease::release).isInstanceOf(LockOwnershipLostException.class);
        LockLease next = new InterProcessMutex(other, "/mutex/closed-under-a-hold").acquireLease(WAIT);
        assertThat(next).as("the closed client's node went with its session").isNotNull();
        next.release();
        assertThat(told).as("told once").hasSize(1);
    }

    @Test
    void nodesUseCuratorsLayoutAndParticipantsAreListedHolderFirst(BatonClient a, BatonClient b) throws Exception {
        InterProcessMutex first = new InterProcessMutex(a, "/mutex/layout");
        InterProcessMutex second = new InterProcessMutex(b, "/mutex/layout");
        LockLease held = first.acquireLease();
        CompletableFuture<LockLease> waiting = second.acquireAsync();
        await().atMost(WAIT).until(() -> first.participantNodes().size() == 2);

        List<String> participants = first.participantNodes();

        assertThat(participants).allSatisfy(path -> assertThat(path).matches("/mutex/layout/_c_[0-9a-f-]{36}-lock-\\d{10}"));
        assertThat(participants.get(0)).isEqualTo(held.nodePaths().get(0));
        held.release();
        waiting.get().release();
    }

    @Test
    void waitersAreServedInOrderOfArrival(BatonClient a, BatonClient b) throws Exception {
        InterProcessMutex holder = new InterProcessMutex(a, "/mutex/fifo");
        LockLease held = holder.acquireLease();
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> waiters = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int me = i;
            waiters.add(new InterProcessMutex(b, "/mutex/fifo").acquireAsync().thenAccept(lease -> {
                order.add(me);
                lease.release();
            }));
            // the next waiter arrives only once this one is in line
            int inLine = i + 2;
            await().atMost(WAIT).until(() -> holder.participantNodes().size() == inLine);
        }

        held.release();

        CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        assertThat(order).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void leaseIsReleasedFromAnotherThreadAndWakesTheNextWaiter(BatonClient a, BatonClient b) throws Exception {
        InterProcessMutex mutex = new InterProcessMutex(a, "/mutex/lease");
        LockLease lease = mutex.acquireLease(WAIT);
        CompletableFuture<LockLease> next = new InterProcessMutex(b, "/mutex/lease").acquireAsync();
        assertThat(mutex.isAcquiredInThisProcess()).isTrue();
        assertThat(mutex.isHeldByCurrentThread()).as("a lease belongs to no thread").isFalse();
        assertThat(mutex.fencingToken()).isEqualTo(lease.fencingToken());

        CompletableFuture.runAsync(lease::release).get(20, TimeUnit.SECONDS);

        LockLease nextLease = next.get(20, TimeUnit.SECONDS);
        assertThat(nextLease.fencingToken()).isGreaterThan(lease.fencingToken());
        assertThat(lease.isValid()).isFalse();
        assertThat(mutex.isAcquiredInThisProcess()).isFalse();
        assertThatThrownBy(lease::release).isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("already released");
        lease.close(); // closing twice is fine
        nextLease.close();
    }

    @Test
    void asyncAcquisitionParksNoThread(BatonClient a, BatonClient b) throws Exception {
        LockLease held = new InterProcessMutex(a, "/mutex/async").acquireLease();
        int threadsBefore = Thread.activeCount();
        List<CompletableFuture<LockLease>> waiters = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            waiters.add(new InterProcessMutex(b, "/mutex/async").acquireAsync());
        }
        InterProcessMutex observer = new InterProcessMutex(a, "/mutex/async");
        await().atMost(WAIT).until(() -> observer.participantNodes().size() == 51);

        assertThat(Thread.activeCount() - threadsBefore).as("threads started for 50 waiting acquisitions").isLessThan(5);
        assertThat(waiters).noneMatch(CompletableFuture::isDone);
        waiters.forEach(w -> w.cancel(true));
        await().atMost(WAIT).until(() -> observer.participantNodes().size() == 1);
        held.release();
    }

    @Test
    void cancellingAnAsyncAcquisitionDeletesItsNode(BatonClient a, BatonClient b) throws Exception {
        InterProcessMutex holder = new InterProcessMutex(a, "/mutex/cancel");
        LockLease held = holder.acquireLease();
        CompletableFuture<LockLease> waiting = new InterProcessMutex(b, "/mutex/cancel").acquireAsync();
        await().atMost(WAIT).until(() -> holder.participantNodes().size() == 2);

        assertThat(waiting.cancel(true)).isTrue();

        await().atMost(WAIT).until(() -> holder.participantNodes().equals(held.nodePaths()));
        held.release();
    }

    @Test
    void asyncTimeoutCompletesWithNullAndLeavesNoNode(BatonClient a, BatonClient b) throws Exception {
        InterProcessMutex holder = new InterProcessMutex(a, "/mutex/async-timeout");
        LockLease held = holder.acquireLease();

        assertThat(new InterProcessMutex(b, "/mutex/async-timeout").acquireAsync(Duration.ofMillis(200)).get(20, TimeUnit.SECONDS))
            .isNull();

        await().atMost(WAIT).until(() -> holder.participantNodes().equals(held.nodePaths()));
        held.release();
    }

    @Test
    void tryOnceSucceedsOnAFreeLockAndFailsOnAHeldOne(BatonClient a, BatonClient b) throws Exception {
        InterProcessMutex mine = new InterProcessMutex(a, "/mutex/try");
        InterProcessMutex theirs = new InterProcessMutex(b, "/mutex/try");

        assertThat(mine.acquire(Duration.ZERO)).isTrue();
        assertThat(theirs.acquire(Duration.ZERO)).isFalse();
        mine.release();
        assertThat(theirs.acquireLease(Duration.ZERO)).isNotNull().satisfies(LockLease::release);
    }

    @Test
    void lockViewLocksUnlocksAndRefusesConditions(BatonClient a, BatonClient b) throws Exception {
        Lock lock = new InterProcessMutex(a, "/mutex/view").asLock();
        Lock other = new InterProcessMutex(b, "/mutex/view").asLock();

        lock.lock();
        assertThat(other.tryLock()).isFalse();
        assertThat(other.tryLock(100, TimeUnit.MILLISECONDS)).isFalse();
        lock.unlock();
        assertThat(other.tryLock(10, TimeUnit.SECONDS)).isTrue();
        other.unlock();
        assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class)
            .hasMessageContaining("newCondition() is not supported by InterProcessMutex /mutex/view");
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
    }

    /**
     * {@code Lock.tryLock(Long.MAX_VALUE, unit)} is a common way to say "wait as long as it takes":
     * in any unit it waits for the lock, as a timeout too long to count does in the Duration forms
     * (it threw {@code ArithmeticException: long overflow} for MINUTES and coarser).
     */
    @Test
    void lockViewTryLockWithATimeTooLongToCountWaitsInsteadOfOverflowing(BatonClient a, BatonClient b) throws Exception {
        InterProcessMutex holder = new InterProcessMutex(a, "/mutex/view-forever");
        Lock view = new InterProcessMutex(b, "/mutex/view-forever").asLock();
        for (TimeUnit unit : List.of(TimeUnit.MINUTES, TimeUnit.DAYS)) {
            holder.acquire();
            CompletableFuture<Boolean> locked = CompletableFuture.supplyAsync(() -> {
                try {
                    boolean got = view.tryLock(Long.MAX_VALUE, unit);
                    view.unlock();
                    return got;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(WAIT).until(() -> holder.participantNodes().size() == 2 || locked.isDone());
            assertThat(locked).as("tryLock(Long.MAX_VALUE, %s) waits while the lock is held", unit).isNotDone();
            holder.release();
            assertThat(locked.get(20, TimeUnit.SECONDS)).as("tryLock(Long.MAX_VALUE, %s)", unit).isTrue();
        }
    }

    @Test
    void lockViewKeepsTryingThroughAnInterruptAndRestoresIt(BatonClient a, BatonClient b) throws Exception {
        InterProcessMutex holder = new InterProcessMutex(a, "/mutex/view-interrupt");
        holder.acquire();
        Lock view = new InterProcessMutex(b, "/mutex/view-interrupt").asLock();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Thread> started = new CompletableFuture<>();
            Future<Boolean> locked = thread.submit(() -> {
                started.complete(Thread.currentThread());
                view.lock();
                boolean interrupted = Thread.interrupted();
                view.unlock();
                return interrupted;
            });
            await().atMost(WAIT).until(() -> holder.participantNodes().size() == 2);
            String firstPlace = holder.participantNodes().get(1);
            started.get().interrupt();
            // the interrupted attempt deleted its node and joined the line again
            await().atMost(WAIT).until(() -> {
                List<String> line = holder.participantNodes();
                return line.size() == 2 && !line.get(1).equals(firstPlace);
            });

            holder.release();

            assertThat(locked.get(20, TimeUnit.SECONDS)).as("lock() restores the interrupt it swallowed").isTrue();
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void guardCommitsOnlyWhileTheLeaseHolds(BatonClient a) throws Exception {
        a.create().forPath("/mutex-guarded", "0".getBytes(StandardCharsets.UTF_8));
        LockLease lease = new InterProcessMutex(a, "/mutex/guard").acquireLease();

        lease.guard(a.transaction()).setData("/mutex-guarded", "1".getBytes(StandardCharsets.UTF_8)).commit();
        assertThat(a.getData().forPath("/mutex-guarded")).asString(StandardCharsets.UTF_8).isEqualTo("1");

        var prepared = lease.guard(a.transaction()).setData("/mutex-guarded", "2".getBytes(StandardCharsets.UTF_8));
        lease.release();
        assertThatThrownBy(prepared::commit).isInstanceOf(TransactionFailedException.class);
        assertThat(a.getData().forPath("/mutex-guarded")).asString(StandardCharsets.UTF_8).isEqualTo("1");
        assertThatThrownBy(() -> lease.guard(a.transaction())).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("was released");
    }

    @Test
    void onLostIsNotCalledForANormalRelease(BatonClient a) throws Exception {
        LockLease lease = new InterProcessMutex(a, "/mutex/no-loss").acquireLease();
        List<String> calls = new CopyOnWriteArrayList<>();
        lease.onLost(() -> calls.add("lost"));
        lease.release();
        // a later event on the client executor would have run the callback by now
        CompletableFuture<Void> drained = new CompletableFuture<>();
        a.eventExecutor().execute(() -> drained.complete(null));
        drained.get(20, TimeUnit.SECONDS);
        assertThat(calls).isEmpty();
        assertThat(lease.lossReason()).isEmpty();
    }

    @Test
    void badInputFailsAtOnceWithATypedException(BatonClient a) throws Exception {
        assertThatThrownBy(() -> new InterProcessMutex(a, "no-slash")).isInstanceOf(InvalidPathException.class)
            .hasMessageContaining("no-slash");
        assertThatThrownBy(() -> new InterProcessMutex(a, "/trailing/")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> new InterProcessMutex(a, "/")).isInstanceOf(InvalidPathException.class)
            .hasMessageContaining("not the root");
        assertThatThrownBy(() -> new InterProcessMutex(null, "/x")).isInstanceOf(NullPointerException.class);
        InterProcessMutex mutex = new InterProcessMutex(a, "/mutex/bad");
        assertThatThrownBy(() -> mutex.acquire(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> mutex.acquireLease(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(mutex::release).isInstanceOf(IllegalMonitorStateException.class)
            .hasMessageContaining("does not hold InterProcessMutex /mutex/bad");
    }

    @Test
    void curatorsNamesAnswerLikeBatonsOwn(BatonClient a) throws Exception {
        InterProcessMutex mutex = new InterProcessMutex(a, "/mutex/curator-names");
        assertThat(mutex.isOwnedByCurrentThread()).isFalse();
        mutex.acquire();
        try {
            assertThat(mutex.isOwnedByCurrentThread()).isTrue();
            assertThat(mutex.getParticipantNodes()).isEqualTo(mutex.participantNodes()).hasSize(1);
            assertThat(CompletableFuture.supplyAsync(mutex::isOwnedByCurrentThread).get())
                .as("another thread does not own it").isFalse();
        } finally {
            mutex.release();
        }
        assertThat(mutex.isOwnedByCurrentThread()).isFalse();
    }
}

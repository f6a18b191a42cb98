package dev.baton.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.LockOwnershipLostException;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scenarios of Spring Integration's ZooKeeper lock registry tests (ZkLockRegistryTests), run
 * against {@link BatonLockRegistry}, plus what Baton adds: fencing tokens and loud loss.
 * Where Spring's test waits with a sleep, this one waits on a condition.
 */
@EnsembleTest
class BatonLockRegistryTest {
    private static final long WAIT_SECONDS = 20;

    private final ExecutorService other = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopOtherThread() {
        other.shutdownNow();
    }

    @Test
    void lockingOneKeyTenTimesCachesOneLockAndExpiryDropsIt(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/plain");
        for (int i = 0; i < 10; i++) {
            Lock lock = registry.obtain("orders");
            lock.lock();
            try {
                assertThat(registry.cachedKeys()).containsExactly("orders");
            } finally {
                lock.unlock();
            }
        }
        registry.expireUnusedOlderThan(0);
        assertThat(registry.cachedKeys()).isEmpty();
    }

    @Test
    void lockInterruptiblyTenTimes(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/interruptibly");
        for (int i = 0; i < 10; i++) {
            Lock lock = registry.obtain("orders");
            lock.lockInterruptibly();
            try {
                assertThat(registry.cachedKeys()).hasSize(1);
            } finally {
                lock.unlock();
            }
        }
    }

    @Test
    void theSameKeyGivesTheSameReentrantLock(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/reentrant");
        for (int i = 0; i < 10; i++) {
            Lock first = registry.obtain("orders");
            first.lockInterruptibly();
            try {
                Lock second = registry.obtain("orders");
                assertThat(second).isSameAs(first);
                second.lockInterruptibly();
                second.lock();
                second.unlock();
                second.unlock();
                assertThat(registry.obtain("orders").isHeldByCurrentThread()).as("held until the last unlock").isTrue();
            } finally {
                first.unlock();
            }
        }
        assertThat(registry.obtain("orders").isLocked()).isFalse();
    }

    @Test
    void twoKeysAreTwoIndependentLocks(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/two-keys");
        for (int i = 0; i < 10; i++) {
            Lock orders = registry.obtain("orders");
            orders.lockInterruptibly();
            try {
                Lock invoices = registry.obtain("invoices");
                assertThat(invoices).isNotSameAs(orders);
                invoices.lockInterruptibly();
                invoices.unlock();
            } finally {
                orders.unlock();
            }
        }
    }

    @Test
    void aSecondThreadFailsToGetTheLockAndCannotUnlockIt(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/second-fails");
        Lock mine = registry.obtain("orders");
        mine.lockInterruptibly();
        Future<Throwable> theirs = other.submit(() -> {
            Lock lock = registry.obtain("orders");
            boolean locked = lock.tryLock(200, TimeUnit.MILLISECONDS);
            assertThat(locked).as("tryLock while another thread holds the lock").isFalse();
            try {
                lock.unlock();
                return null;
            } catch (IllegalMonitorStateException e) {
                return e;
            }
        });
        Throwable refused = theirs.get(WAIT_SECONDS, TimeUnit.SECONDS);
        mine.unlock();
        assertThat(refused).isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("You do not own");
    }

    @Test
    void aWaitingThreadGetsTheLockWhenTheHolderUnlocks(BatonClient client) throws Exception {
        handOver(new BatonLockRegistry(client, "/si/two-threads"), new BatonLockRegistry(client, "/si/two-threads"));
    }

    @Test
    void registriesOfTwoClientsExcludeEachOther(BatonClient a, BatonClient b) throws Exception {
        handOver(new BatonLockRegistry(a, "/si/two-registries"), new BatonLockRegistry(b, "/si/two-registries"));
    }

    /** {@code first}'s lock held here; a thread waits on {@code second}'s; unlocking hands it over, with a larger token. */
    private void handOver(BatonLockRegistry first, BatonLockRegistry second) throws Exception {
        BatonLock mine = first.obtain("orders");
        mine.lockInterruptibly();
        long myToken = mine.fencingToken();
        AtomicBoolean locked = new AtomicBoolean();
        CountDownLatch waiting = new CountDownLatch(1);
        Future<Long> theirs = other.submit(() -> {
            BatonLock lock = second.obtain("orders");
            waiting.countDown();
            lock.lockInterruptibly();
            try {
                locked.set(true);
                return lock.fencingToken();
            } finally {
                lock.unlock();
            }
        });
        assertThat(waiting.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(WAIT_SECONDS)).until(() -> mine.mutex().participantNodes().size() == 2);
        assertThat(locked).as("the other thread got the lock while this one held it").isFalse();
        mine.unlock();
        long theirToken = theirs.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(locked).isTrue();
        assertThat(theirToken).as("the next holder's fencing token").isGreaterThan(myToken);
    }

    @Test
    void aThreadThatDoesNotHoldTheLockCannotUnlockIt(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/wrong-unlocks");
        Lock lock = registry.obtain("orders");
        lock.lockInterruptibly();
        Future<Throwable> wrong = other.submit(() -> {
            try {
                lock.unlock();
                return null;
            } catch (IllegalMonitorStateException e) {
                return e;
            }
        });
        assertThat(wrong.get(WAIT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(IllegalMonitorStateException.class)
            .hasMessageContaining("You do not own");
        assertThat(registry.obtain("orders").isHeldByCurrentThread()).as("still held by its owner").isTrue();
        lock.unlock();
    }

    @Test
    void aKeyToPathFunctionCanMapEveryKeyToOneLock(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, key -> "/si/single-lock");
        BatonLock orders = registry.obtain("orders");
        orders.lock();
        try {
            assertThat(registry.obtain("invoices").mutex().path()).isEqualTo("/si/single-lock");
            assertThat(CompletableFuture.supplyAsync(() -> registry.obtain("invoices").tryLock(), other).get(WAIT_SECONDS, TimeUnit.SECONDS))
                .as("another key on the same path while 'orders' is held").isFalse();
        } finally {
            orders.unlock();
        }
    }

    @Test
    void tryLockSucceedsOnAFreeLockTenTimes(BatonClient client) {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/try-lock");
        for (int i = 0; i < 10; i++) {
            Lock lock = registry.obtain("orders");
            assertThat(lock.tryLock()).isTrue();
            lock.unlock();
        }
    }

    @Test
    void concurrentObtainsKeepTheCacheWithinItsCapacity(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/capacity");
        registry.setCacheCapacity(17);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            CountDownLatch together = new CountDownLatch(4);
            for (int i = 0; i < 50; i++) {
                String key = "orders:" + i;
                done.add(pool.submit(() -> {
                    together.countDown();
                    together.await();
                    Lock lock = registry.obtain(key);
                    lock.lock();
                    lock.unlock();
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        // held locks may exceed the capacity for a while; with none held, one more key trims it
        registry.obtain("orders:last");
        assertThat(registry.cachedKeys()).hasSize(17).contains("orders:last");
        registry.expireUnusedOlderThan(-1000);
        assertThat(registry.cachedKeys()).isEmpty();
    }

    @Test
    void theLeastRecentlyObtainedLocksLeaveFirstAndCapacityCanChange(BatonClient client) {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/lru");
        registry.setCacheCapacity(4);
        registry.obtain("orders:1");
        registry.obtain("orders:2");
        registry.obtain("orders:3");
        registry.setCacheCapacity(3);
        registry.obtain("orders:4");
        assertThat(registry.cachedKeys()).containsExactly("orders:2", "orders:3", "orders:4");

        registry.setCacheCapacity(4);
        registry.obtain("orders:5");
        assertThat(registry.cachedKeys()).containsExactly("orders:2", "orders:3", "orders:4", "orders:5");
        registry.obtain("orders:2");
        registry.obtain("orders:6");
        assertThat(registry.cachedKeys()).as("orders:2 was obtained again, so orders:3 is the eldest")
            .containsExactly("orders:4", "orders:5", "orders:2", "orders:6");
    }

    @Test
    void aHeldLockIsNotEvictedByAFullCache(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/held-stays");
        registry.setCacheCapacity(1);
        BatonLock lock = registry.obtain("test");
        lock.lock();
        try {
            registry.obtain("test2");
            BatonLock again = registry.obtain("test");
            assertThat(again).isSameAs(lock);
            assertThat(again.tryLock(10, TimeUnit.SECONDS)).as("re-entry").isTrue();
            again.unlock();
        } finally {
            lock.unlock();
        }
    }

    @Test
    void renewingChecksThatTheCallerStillHoldsTheLock(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/renew");
        assertThatIllegalStateException().isThrownBy(() -> registry.renewLock("orders")).withMessageContaining("does not hold it");
        Lock lock = registry.obtain("orders");
        lock.lock();
        try {
            registry.renewLock("orders");
        } finally {
            lock.unlock();
        }
        assertThatIllegalStateException().isThrownBy(() -> registry.renewLock("orders"));
    }

    @Test
    void aLostLockSaysSoAndItsUnlockThrows(@ConnectString String connect) throws Exception {
        try (BatonClient client = BatonClient.builder().connectString(connect).sessionTimeout(Duration.ofSeconds(10)).build()) {
            client.start();
            BatonLockRegistry registry = new BatonLockRegistry(client, "/si/lost");
            BatonLock lock = registry.obtain("orders");
            lock.lock();
            CountDownLatch lost = new CountDownLatch(1);
            lock.onLost(lost::countDown);
            assertThat(lock.isValid()).isTrue();

            SessionKiller.expire(client, connect, Duration.ofSeconds(WAIT_SECONDS));

            assertThat(lost.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("onLost ran").isTrue();
            assertThat(lock.isValid()).isFalse();
            assertThatThrownBy(() -> registry.renewLock("orders")).isInstanceOf(LockOwnershipLostException.class);
            assertThatThrownBy(lock::lock).as("re-entering a lost hold").isInstanceOf(LockOwnershipLostException.class);
            assertThatThrownBy(lock::unlock).isInstanceOf(LockOwnershipLostException.class).hasMessageContaining("was lost");
            assertThat(lock.isLocked()).as("released all the same").isFalse();
            assertThat(lock.tryLock(WAIT_SECONDS, TimeUnit.SECONDS)).as("taken again on the new session").isTrue();
            lock.unlock();
        }
    }

    @Test
    void newConditionIsRefused(BatonClient client) {
        Lock lock = new BatonLockRegistry(client, "/si/condition").obtain("orders");
        assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
    }
    /**
     * {@code tryLock(Long.MAX_VALUE, unit)} is a common way to say "wait as long as it takes": it takes
     * the lock in every unit, as {@code Lock} promises, instead of throwing
     * {@code ArithmeticException: long overflow} for MINUTES and coarser.
     */
    @Test
    void tryLockWithATimeTooLongToCountTakesTheLockInEveryUnit(BatonClient client) throws Exception {
        BatonLockRegistry registry = new BatonLockRegistry(client, "/si/forever");
        for (TimeUnit unit : TimeUnit.values()) {
            Lock lock = registry.obtain("orders");
            assertThat(lock.tryLock(Long.MAX_VALUE, unit)).as("tryLock(Long.MAX_VALUE, %s)", unit).isTrue();
            lock.unlock();
        }
    }
}

package dev.baton.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.LockOwnershipLostException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Spring Integration's "lock fails when the server is down" scenario against
 * {@link BatonLockRegistry}, on a server of its own (the test stops it). Where Spring's ZooKeeper
 * registry lets a thread re-enter a lock it held before the outage, Baton's says the hold was lost.
 */
@EnsembleTest
class BatonLockRegistryServerDownTest {
    EmbeddedEnsemble ensemble;

    @Test
    void withTheServerDownTryLockGivesUpInTimeAndAnInterruptEndsLockInterruptibly() throws Exception {
        try (BatonClient client = BatonClient.builder().connectString(ensemble.connectString())
                .sessionTimeout(Duration.ofSeconds(20)).build()) {
            client.start();
            BatonLockRegistry registry = new BatonLockRegistry(client, "/si/server-down");
            BatonLock orders = registry.obtain("orders");
            orders.lock();
            CountDownLatch lost = new CountDownLatch(1);
            orders.onLost(lost::countDown);

            ensemble.stop(1);
            try {
                BatonLock invoices = registry.obtain("invoices");
                long start = System.nanoTime();
                assertThat(invoices.tryLock(1, TimeUnit.SECONDS)).as("tryLock with the server down").isFalse();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("tryLock blocked far beyond the time asked")
                    .isLessThan(Duration.ofSeconds(3));

                AtomicReference<Throwable> thrown = new AtomicReference<>();
                CountDownLatch attempted = new CountDownLatch(1);
                Thread locker = new Thread(() -> {
                    try {
                        registry.obtain("interruptible").lockInterruptibly();
                    } catch (Throwable t) {
                        thrown.set(t);
                    } finally {
                        attempted.countDown();
                    }
                });
                locker.start();
                locker.interrupt();
                assertThat(attempted.await(10, TimeUnit.SECONDS)).as("lockInterruptibly returned on the interrupt").isTrue();
                assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
                locker.join(10_000);

                assertThat(lost.await(10, TimeUnit.SECONDS)).as("the held lock reported lost (STANDARD policy: suspended is lost)").isTrue();
                assertThat(orders.isValid()).isFalse();
            } finally {
                ensemble.restart(1);
            }

            BatonLock invoices = registry.obtain("invoices");
            assertThat(invoices.tryLock(20, TimeUnit.SECONDS)).as("tryLock once the server is back").isTrue();
            assertThatThrownBy(() -> orders.tryLock(1, TimeUnit.SECONDS)).as("re-entering the hold lost in the outage")
                .isInstanceOf(LockOwnershipLostException.class);
            assertThatThrownBy(orders::unlock).isInstanceOf(LockOwnershipLostException.class);
            assertThat(CompletableFuture.supplyAsync(() -> {
                BatonLock shipments = registry.obtain("shipments");
                boolean locked = shipments.tryLock();
                if (locked) {
                    shipments.unlock();
                }
                return locked;
            }).get(20, TimeUnit.SECONDS)).as("a new lock after the outage").isTrue();
            invoices.unlock();
        }
    }
}

package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.barrier.DistributedBarrier;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.recipes.discovery.ServiceProvider;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.LockLease;
import dev.baton.recipes.lock.LockOwnershipLostException;
import dev.baton.recipes.queue.DistributedQueue;
import dev.baton.recipes.queue.QueueBuilder;
import dev.baton.recipes.queue.QueueSerializer;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.recipes.rwlock.ReadLease;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One test per recipe family, all against one real ZooKeeper server that {@code @EnsembleTest}
 * starts in this JVM before the first test and stops after the last.
 */
@EnsembleTest
class RecipesTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    EmbeddedEnsemble ensemble;        // injected: the running server
    @ConnectString String connect;    // injected: "127.0.0.1:<port>", what production reads from its config

    @Test
    void eachLockHolderGetsALargerFencingToken(BatonClient client) throws Exception {
        // A BatonClient parameter is a fresh client, connected, closed when the test ends.
        InterProcessMutex mutex = new InterProcessMutex(client, "/example/locks/reports");
        long first;
        try (LockLease lease = mutex.acquireLease(WAIT)) {      // null if the wait ran out
            assertNotNull(lease);
            first = lease.fencingToken();                       // hand it to whatever you write to
        }
        try (LockLease lease = mutex.acquireLease(WAIT)) {
            assertTrue(lease.fencingToken() > first, "a later holder's token is larger");
        }
    }

    @Test
    void readersShareTheLock(BatonClient a, BatonClient b) throws Exception {
        InterProcessReadWriteLock onA = new InterProcessReadWriteLock(a, "/example/locks/catalog");
        InterProcessReadWriteLock onB = new InterProcessReadWriteLock(b, "/example/locks/catalog");
        try (ReadLease one = onA.readLock().acquireLease(WAIT);
             ReadLease two = onB.readLock().acquireLease(WAIT)) {
            assertNotNull(one);
            assertNotNull(two, "two readers hold it at once");
        }
    }

    @Test
    void aLostLockIsLoud(BatonClient client) throws Exception {
        InterProcessMutex mutex = new InterProcessMutex(client, "/example/locks/loud");
        LockLease lease = mutex.acquireLease(WAIT);
        CountDownLatch lost = new CountDownLatch(1);
        lease.onLost(lost::countDown);

        ensemble.stop(1);                                       // the server goes away
        assertTrue(lost.await(10, TimeUnit.SECONDS), "the holder is told");
        assertFalse(lease.isValid());
        ensemble.restart(1);
        assertThrows(LockOwnershipLostException.class, lease::release);
    }

    @Test
    void oneLatchLeadsAndTheNextTakesOver(BatonClient a, BatonClient b) throws Exception {
        try (LeaderLatch first = new LeaderLatch(a, "/example/leader", "node-1");
             LeaderLatch second = new LeaderLatch(b, "/example/leader", "node-2")) {
            first.start();
            assertTrue(first.await(WAIT));
            second.start();
            assertEquals("node-1", second.getLeader().id());

            first.close();                                      // step down: the next in line leads
            assertTrue(second.await(WAIT));
            assertTrue(second.leadershipToken() > 0);
        }
    }

    @Test
    void aBarrierHoldsWaitersUntilItIsRemoved(BatonClient client) throws Exception {
        DistributedBarrier barrier = new DistributedBarrier(client, "/example/barrier");
        barrier.setBarrier();
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return barrier.waitOnBarrier(WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        barrier.removeBarrier();
        assertTrue(waiter.get(10, TimeUnit.SECONDS), "the waiter passed");
    }

    @Test
    void aQueueHandsEachItemToTheConsumer(BatonClient client) throws Exception {
        BlockingQueue<String> consumed = new LinkedBlockingQueue<>();
        try (DistributedQueue<String> queue = QueueBuilder.builder(client, consumed::add, new Utf8(), "/example/jobs")
                .buildQueue()) {
            queue.start();
            queue.put("resize 42");
            queue.put("resize 43");
            assertEquals("resize 42", consumed.poll(10, TimeUnit.SECONDS));
            assertEquals("resize 43", consumed.poll(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void discoveryFindsARegisteredInstance(BatonClient client) throws Exception {
        ServiceInstance<Void> me = ServiceInstance.<Void>builder().name("payments").address("10.0.0.7").port(8080).build();
        // The other service has its own client, made the way the application makes it.
        try (BatonClient other = Coordination.connect(connect);
             ServiceDiscovery<Void> registry = ServiceDiscoveryBuilder.builder(Void.class)
                 .client(client).basePath("/example/services").thisInstance(me).build();
             ServiceDiscovery<Void> lookup = ServiceDiscoveryBuilder.builder(Void.class)
                 .client(other).basePath("/example/services").build()) {
            registry.start();                                   // registers `me`
            lookup.start();
            try (ServiceProvider<Void> provider = lookup.serviceProviderBuilder().serviceName("payments").build()) {
                provider.start();
                assertEquals(8080, provider.getInstance().port());
            }
        }
    }

    /** Queue items are bytes in ZooKeeper: a serializer turns them into your type and back. */
    static final class Utf8 implements QueueSerializer<String> {
        @Override
        public byte[] serialize(String item) {
            return item.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String deserialize(byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }
}

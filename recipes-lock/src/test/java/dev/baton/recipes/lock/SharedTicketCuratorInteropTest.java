package dev.baton.recipes.lock;

import dev.baton.framework.contention.SharedTicket;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Baton process in the shared-ticket mode is one ordinary contender to Curator 5.9 on the same path: its mutex's
 * node, its semaphore mutex's lease and its semaphore's leases are ordinary nodes to Curator's recipes.
 */
@EnsembleTest
class SharedTicketCuratorInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private CuratorFramework curator;

    @BeforeEach
    void startCurator(@ConnectString String connect) throws Exception {
        curator = CuratorFrameworkFactory.newClient(connect, 10_000, 10_000, new ExponentialBackoffRetry(100, 3));
        curator.start();
        assertThat(curator.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
    }

    @AfterEach
    void stopCurator() {
        curator.close();
    }

    @Test
    void curatorSeesTheProcessesOneNodeAndWaitsForAllItsLocalHolds(BatonClient client) throws Exception {
        String path = "/interop/shared-1";
        InterProcessMutex baton = new InterProcessMutex(client, path, SharedTicket.defaults());
        var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, path);
        LockLease first = baton.acquireLease();
        CompletableFuture<LockLease> second = baton.acquireAsync();

        assertThat(curatorMutex.getParticipantNodes()).containsExactlyElementsOf(first.nodePaths());
        CompletableFuture<Boolean> curatorWaits = CompletableFuture.supplyAsync(() -> {
            try {
                boolean got = curatorMutex.acquire(20, TimeUnit.SECONDS);
                curatorMutex.release();
                return got;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 2);
        first.release();
        LockLease secondLease = second.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(curatorWaits).as("Curator waits while the process's node holds").isNotDone();
        secondLease.release();

        assertThat(curatorWaits.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        await().atMost(WAIT).until(() -> baton.participantNodes().isEmpty());
    }

    @Test
    void curatorAndASharedTicketProcessExcludeEachOther(BatonClient client) throws Exception {
        String path = "/interop/shared-2";
        InterProcessMutex baton = new InterProcessMutex(client, path, new SharedTicket(3, Duration.ofMillis(2)));
        var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, path);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger curatorHolds = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            workers.add(CompletableFuture.runAsync(() -> {
                try {
                    for (int round = 0; round < 20; round++) {
                        assertThat(baton.acquire(WAIT)).isTrue();
                        enter(inside, overlaps);
                        baton.release();
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, command -> new Thread(command).start()));
        }
        workers.add(CompletableFuture.runAsync(() -> {
            try {
                for (int round = 0; round < 20; round++) {
                    assertThat(curatorMutex.acquire(20, TimeUnit.SECONDS)).isTrue();
                    curatorHolds.incrementAndGet();
                    enter(inside, overlaps);
                    curatorMutex.release();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, command -> new Thread(command).start()));
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        assertThat(overlaps).as("a Curator holder and a Baton holder at once").hasValue(0);
        assertThat(curatorHolds).hasValue(20);
        await().atMost(WAIT).until(() -> baton.participantNodes().isEmpty());
    }

    @Test
    void curatorsSemaphoreMutexAndASharedTicketSemaphoreMutexExcludeEachOther(BatonClient client) throws Exception {
        String path = "/interop/shared-sem-mutex";
        InterProcessSemaphoreMutex baton = new InterProcessSemaphoreMutex(client, path, new SharedTicket(3, Duration.ofMillis(2)));
        var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex(curator, path);
        LockLease first = baton.acquireLease();
        CompletableFuture<LockLease> second = baton.acquireAsync();
        assertThat(curatorMutex.acquire(0, TimeUnit.MILLISECONDS)).as("Curator sees the process's lease").isFalse();
        first.release();
        LockLease secondLease = second.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(secondLease.nodePaths()).as("handed on in memory").isEqualTo(first.nodePaths());
        assertThat(curatorMutex.acquire(0, TimeUnit.MILLISECONDS)).isFalse();
        secondLease.release();

        assertThat(overlapsWith(baton, () -> {
            assertThat(curatorMutex.acquire(20, TimeUnit.SECONDS)).isTrue();
            return curatorMutex::release;
        }, 1)).as("holders beyond the one lease").hasValue(0);
    }

    @Test
    void curatorsSemaphoreAndASharedTicketSemaphoreNeverHoldMoreThanTheLeasesTogether(BatonClient client) throws Exception {
        String path = "/interop/shared-sem";
        InterProcessSemaphoreV2 baton = new InterProcessSemaphoreV2(client, path, 2, new SharedTicket(3, Duration.ofMillis(2)));
        var curatorSemaphore = new org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2(curator, path, 2);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger beyond = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            workers.add(CompletableFuture.runAsync(() -> {
                try {
                    for (int round = 0; round < 15; round++) {
                        try (Lease lease = baton.acquire(WAIT)) {
                            assertThat(lease).isNotNull();
                            enter(inside, beyond, 2);
                        }
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, command -> new Thread(command).start()));
        }
        AtomicInteger curatorHolds = new AtomicInteger();
        for (int t = 0; t < 2; t++) {
            workers.add(CompletableFuture.runAsync(() -> {
                try {
                    for (int round = 0; round < 10; round++) {
                        var lease = curatorSemaphore.acquire(20, TimeUnit.SECONDS);
                        assertThat(lease).isNotNull();
                        curatorHolds.incrementAndGet();
                        enter(inside, beyond, 2);
                        curatorSemaphore.returnLease(lease);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, command -> new Thread(command).start()));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        assertThat(beyond).as("holders beyond the two leases").hasValue(0);
        assertThat(curatorHolds).hasValue(20);
        await().atMost(WAIT).until(() -> baton.participantNodes().isEmpty());
    }

    /** A Curator hold: acquires, and returns how to release. */
    private interface CuratorHold {
        CuratorRelease take() throws Exception;
    }

    private interface CuratorRelease {
        void release() throws Exception;
    }

    /** Three threads of {@code baton} and one Curator thread, 20 rounds each: {@return how often more than {@code leases} held} */
    private static AtomicInteger overlapsWith(LeasableLock baton, CuratorHold curatorHold, int leases) throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger beyond = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            workers.add(CompletableFuture.runAsync(() -> {
                try {
                    for (int round = 0; round < 20; round++) {
                        assertThat(baton.acquire(WAIT)).isTrue();
                        enter(inside, beyond, leases);
                        baton.release();
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, command -> new Thread(command).start()));
        }
        workers.add(CompletableFuture.runAsync(() -> {
            try {
                for (int round = 0; round < 20; round++) {
                    CuratorRelease held = curatorHold.take();
                    enter(inside, beyond, leases);
                    held.release();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, command -> new Thread(command).start()));
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        return beyond;
    }

    private static void enter(AtomicInteger inside, AtomicInteger beyond, int leases) {
        if (inside.incrementAndGet() > leases) {
            beyond.incrementAndGet();
        }
        Thread.yield();
        inside.decrementAndGet();
    }

    private static void enter(AtomicInteger inside, AtomicInteger overlaps) {
        if (inside.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        Thread.yield();
        inside.decrementAndGet();
    }
}

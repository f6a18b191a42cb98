package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A Curator 5.9 process and a Baton process on the same lock or semaphore exclude each other, in both orders. */
@EnsembleTest
class CuratorInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private CuratorFramework curator;
    private ExecutorService curatorThread;

    @BeforeEach
    void startCurator(@ConnectString String connect) throws Exception {
        curator = CuratorFrameworkFactory.newClient(connect, 10_000, 10_000, new ExponentialBackoffRetry(100, 3));
        curator.start();
        assertThat(curator.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        // Curator's mutex is bound to a thread: acquire and release it on this one
        curatorThread = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void stopCurator() {
        curatorThread.shutdownNow();
        curator.close();
    }

    @Test
    void batonHoldsThenCuratorWaitsUntilRelease(BatonClient client) throws Exception {
        InterProcessMutex baton = new InterProcessMutex(client, "/interop/mutex-1");
        var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, "/interop/mutex-1");
        LockLease held = baton.acquireLease();

        assertThat(onCurator(() -> curatorMutex.acquire(300, TimeUnit.MILLISECONDS))).isFalse();
        Future<Boolean> curatorWaits = curatorThread.submit(() -> curatorMutex.acquire(20, TimeUnit.SECONDS));
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 2);
        assertThat(curatorWaits.isDone()).isFalse();
        held.release();

        assertThat(curatorWaits.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(baton.acquire(Duration.ZERO)).as("Baton sees Curator's hold").isFalse();
        onCurator(() -> {
            curatorMutex.release();
            return null;
        });
        assertThat(baton.acquire(WAIT)).isTrue();
        baton.release();
    }

    @Test
    void curatorHoldsThenBatonWaitsUntilRelease(BatonClient client) throws Exception {
        InterProcessMutex baton = new InterProcessMutex(client, "/interop/mutex-2");
        var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, "/interop/mutex-2");
        onCurator(() -> {
            curatorMutex.acquire();
            return null;
        });

        assertThat(baton.acquire(Duration.ofMillis(300))).isFalse();
        CompletableFuture<LockLease> batonWaits = baton.acquireAsync();
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 2);
        assertThat(batonWaits).isNotDone();
        long curatorToken = client.checkExists().forPath(baton.participantNodes().get(0)).getCzxid();
        onCurator(() -> {
            curatorMutex.release();
            return null;
        });

        LockLease lease = batonWaits.get(20, TimeUnit.SECONDS);
        assertThat(lease.fencingToken()).isGreaterThan(curatorToken);
        assertThat(onCurator(() -> curatorMutex.acquire(300, TimeUnit.MILLISECONDS))).as("Curator sees Baton's hold").isFalse();
        lease.release();
    }

    @Test
    void semaphoreLeasesAreSharedWithCuratorInBothOrders(BatonClient client) throws Exception {
        String path = "/interop/semaphore";
        InterProcessSemaphoreV2 baton = new InterProcessSemaphoreV2(client, path, 2);
        var curatorSemaphore = new org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2(curator, path, 2);

        // Curator takes one, Baton the other: the semaphore is full for both
        var curatorLease = curatorSemaphore.acquire(10, TimeUnit.SECONDS);
        Lease batonLease = baton.acquire(WAIT);
        assertThat(curatorLease).isNotNull();
        assertThat(batonLease).isNotNull();
        assertThat(baton.participantNodes()).hasSize(2).allMatch(name -> name.matches("_c_[0-9a-f-]{36}-lease-\\d{10}"));
        assertThat(baton.acquire(Duration.ofMillis(300))).as("Baton counts Curator's lease").isNull();
        assertThat(curatorSemaphore.acquire(300, TimeUnit.MILLISECONDS)).as("Curator counts Baton's lease").isNull();

        // a Curator waiter gets the lease Baton returns, and a Baton waiter the one Curator returns
        CompletableFuture<Lease> batonWaits = baton.acquireAsync(WAIT);
        await().atMost(WAIT).until(() -> Nodes.children(client, path + "/locks").size() == 1);
        Future<Collection<org.apache.curator.framework.recipes.locks.Lease>> curatorWaits =
            curatorThread.submit(() -> curatorSemaphore.acquire(1, 20, TimeUnit.SECONDS));
        await().atMost(WAIT).until(() -> Nodes.children(client, path + "/locks").size() == 2);
        curatorSemaphore.returnLease(curatorLease);
        Lease second = batonWaits.get(20, TimeUnit.SECONDS);
        assertThat(second).as("Baton waited first, so Baton gets Curator's returned lease").isNotNull();
        assertThat(curatorWaits.isDone()).isFalse();
        batonLease.close();
        Collection<org.apache.curator.framework.recipes.locks.Lease> curatorSecond = curatorWaits.get(20, TimeUnit.SECONDS);
        assertThat(curatorSecond).hasSize(1);

        curatorSemaphore.returnAll(new ArrayList<>(curatorSecond));
        second.close();
        await().atMost(WAIT).until(() -> baton.participantNodes().isEmpty()
            && Nodes.children(client, path + "/locks").isEmpty());
    }

    @Test
    void semaphoreMutexExcludesCuratorsSemaphoreMutex(BatonClient client) throws Exception {
        InterProcessSemaphoreMutex baton = new InterProcessSemaphoreMutex(client, "/interop/semaphore-mutex");
        var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex(curator,
            "/interop/semaphore-mutex");

        LockLease lease = baton.acquireLease();
        assertThat(curatorMutex.acquire(300, TimeUnit.MILLISECONDS)).isFalse();
        lease.release();
        assertThat(curatorMutex.acquire(10, TimeUnit.SECONDS)).isTrue();
        assertThat(baton.acquire(Duration.ofMillis(300))).isFalse();
        curatorMutex.release();
        assertThat(baton.acquire(WAIT)).isTrue();
        baton.release();
    }

    private <T> T onCurator(Callable<T> task) throws Exception {
        return curatorThread.submit(task).get(30, TimeUnit.SECONDS);
    }
}

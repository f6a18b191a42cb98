package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.CountingClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.junit.jupiter.api.Test;

/** One release wakes one waiter: nobody else is told anything, nobody else lists the folder. */
@EnsembleTest
class HerdTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int WAITERS = 20;

    @Test
    void mutexReleaseWakesExactlyOneOfTwentyWaiters(BatonClient holderClient, BatonClient waiterClient) throws Exception {
        String path = "/herd/mutex";
        LockLease held = new InterProcessMutex(holderClient, path).acquireLease();
        CountingClient counting = CountingClient.wrap(waiterClient);
        List<CompletableFuture<LockLease>> waiters = new ArrayList<>();
        for (int i = 0; i < WAITERS; i++) {
            waiters.add(new InterProcessMutex(counting.client(), path).acquireAsync());
        }
        InterProcessMutex observer = new InterProcessMutex(holderClient, path);
        await().atMost(WAIT).until(() -> observer.participantNodes().size() == WAITERS + 1);
        // every waiter has sent the read that watches its predecessor (a node in line is not yet a watch: a waiter that
        // looks only after the release finds its predecessor gone and is woken by no event); the sync in quiesce then
        // makes sure the servers set those watches before the release
        await().atMost(WAIT).until(() -> counting.reads(CountingClient.Read.GET_DATA) >= WAITERS);
        counting.quiesce(WAIT);
        counting.reset();

        held.release();

        await().atMost(WAIT).until(() -> waiters.stream().filter(CompletableFuture::isDone).count() == 1);
        counting.quiesce(WAIT);
        assertThat(counting.events(EventType.NodeDeleted)).as("watch events delivered to the 20 waiters").isEqualTo(1);
        assertThat(counting.reads(CountingClient.Read.GET_CHILDREN)).as("listings by woken waiters").isZero();
        assertThat(waiters.get(0)).as("the first in line is the one woken").isDone();

        // the next hand-off wakes one again: the waiter that was second in line looks once and holds,
        // and nobody else reads anything (the releaser's own monitor hears its node go: not a waiter)
        counting.reset();
        waiters.get(0).get().release();
        await().atMost(WAIT).until(() -> waiters.stream().filter(CompletableFuture::isDone).count() == 2);
        counting.quiesce(WAIT);
        assertThat(waiters.get(1)).isDone();
        assertThat(counting.reads(CountingClient.Read.GET_CHILDREN)).as("listings: only the woken waiter's").isEqualTo(1);
        assertThat(counting.reads(CountingClient.Read.CHECK_EXISTS)).as("exists calls: at most the new holder's monitor")
            .isLessThanOrEqualTo(1);

        waiters.forEach(w -> w.cancel(true));
        waiters.get(1).get().release();
        await().atMost(WAIT).until(() -> observer.participantNodes().isEmpty());
    }

    @Test
    void semaphoreReturnWakesOnlyTheCountingWaiter(BatonClient holderClient, BatonClient waiterClient) throws Exception {
        String path = "/herd/semaphore";
        InterProcessSemaphoreV2 holderSide = new InterProcessSemaphoreV2(holderClient, path, 2);
        List<Lease> held = List.copyOf(holderSide.acquire(2));
        CountingClient counting = CountingClient.wrap(waiterClient);
        List<CompletableFuture<Lease>> waiters = new ArrayList<>();
        for (int i = 0; i < WAITERS; i++) {
            waiters.add(new InterProcessSemaphoreV2(counting.client(), path, 2).acquireAsync());
        }
        // one waiter holds the internal mutex and counts; the others wait in the mutex's line
        await().atMost(WAIT).until(() -> Nodes.children(holderClient, path + "/locks").size() == WAITERS);
        await().atMost(WAIT).until(() -> holderSide.participantNodes().size() == 3);
        counting.quiesce(WAIT);
        counting.reset();

        held.get(0).close();

        await().atMost(WAIT).until(() -> waiters.stream().filter(CompletableFuture::isDone).count() == 1);
        counting.quiesce(WAIT);
        assertThat(counting.events(EventType.NodeChildrenChanged)).as("children watches fired by one returned lease").isEqualTo(1);

        waiters.forEach(w -> w.cancel(true));
        for (CompletableFuture<Lease> waiter : waiters) {
            if (!waiter.isCancelled()) {
                waiter.get().close();
            }
        }
        held.get(1).close();
        await().atMost(WAIT).until(() -> holderSide.participantNodes().isEmpty()
            && Nodes.children(holderClient, path + "/locks").isEmpty());
    }
}

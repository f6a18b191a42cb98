package dev.baton.metrics;

import static dev.baton.metrics.Meters.count;
import static dev.baton.metrics.Meters.gauge;
import static dev.baton.metrics.Meters.timed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.recipes.barrier.DistributedBarrier;
import dev.baton.recipes.barrier.DistributedCountDownLatch;
import dev.baton.recipes.barrier.DistributedDoubleBarrier;
import dev.baton.recipes.config.ConfigStore;
import dev.baton.recipes.config.Release;
import dev.baton.recipes.config.ReleaseConflictException;
import dev.baton.recipes.config.SharedValue;
import dev.baton.recipes.discovery.DownInstancePolicy;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.recipes.discovery.ServiceProvider;
import dev.baton.recipes.election.ElectionObserver;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.group.GroupMember;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.Lease;
import dev.baton.recipes.lock.LockLease;
import dev.baton.recipes.queue.DistributedQueue;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.recipes.rwlock.ReadLease;
import dev.baton.recipes.rwlock.WriteLease;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.recipes.queue.QueueBuilder;
import dev.baton.recipes.queue.QueueSerializer;
import dev.baton.recipes.queue.SimpleDistributedQueue;
import dev.baton.recipes.transaction.Decision;
import dev.baton.recipes.transaction.Transaction;
import dev.baton.recipes.transaction.TransactionCoordinator;
import dev.baton.recipes.transaction.TransactionHandler;
import dev.baton.recipes.transaction.TransactionParticipant;
import dev.baton.recipes.transaction.Vote;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Each recipe's meters move as the recipe works, against a real server. */
@EnsembleTest
class RecipeMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    private static MeterRegistry bound(BatonClient client, String name, String path) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BatonMetrics.builder(client).name(name, path).build().bindTo(registry);
        return registry;
    }

    /** The lock's gauges: {@code holders} callers hold it and {@code waiters} wait for it, in this process. */
    private static void assertHoldersAndWaiters(MeterRegistry registry, String[] lock, int holders, int waiters) {
        assertThat(gauge(registry, "baton.lock.holders", lock)).as("holders of %s", List.of(lock)).isEqualTo(holders);
        assertThat(gauge(registry, "baton.lock.waiters", lock)).as("waiters for %s", List.of(lock)).isEqualTo(waiters);
    }

    /** Waits until the hold of {@code lock} has been counted lost once and ended (no holder shown). */
    private static void awaitOneLossAndNoHolder(MeterRegistry registry, String[] lock) {
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(count(registry, "baton.lock.losses", lock)).as("losses of %s", List.of(lock)).isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.holders", lock)).as("holders of %s", List.of(lock)).isZero();
        });
    }

    /** Tags must not carry {@code what} (high cardinality, or private): no meter has a tag value that {@code matches}. */
    private static void assertNoMeterTaggedWith(MeterRegistry registry, String what, Predicate<String> matches) {
        assertThat(registry.getMeters()).as("no meter tagged with " + what)
            .noneMatch(m -> m.getId().getTags().stream().anyMatch(t -> matches.test(t.getValue())));
    }

    @Test
    void lockMetersShowOutcomesHoldersWaitersAndLosses(BatonClient a, BatonClient b) throws Exception {
        MeterRegistry ra = bound(a, "orders", "/m/lock");
        MeterRegistry rb = bound(b, "orders", "/m/lock");
        InterProcessMutex mine = new InterProcessMutex(a, "/m/lock");
        InterProcessMutex theirs = new InterProcessMutex(b, "/m/lock");
        String[] orders = {"recipe", "mutex", "name", "orders"};

        mine.acquire();
        assertThat(timed(ra, "baton.lock.acquire", "name", "orders", "outcome", "acquired")).isEqualTo(1);
        assertThat(gauge(ra, "baton.lock.holders", orders)).isEqualTo(1);

        assertThat(theirs.acquire(Duration.ofMillis(200))).isFalse();
        assertThat(timed(rb, "baton.lock.acquire", "name", "orders", "outcome", "timed-out")).isEqualTo(1);
        assertThat(gauge(rb, "baton.lock.waiters", orders)).isZero();

        CompletableFuture<LockLease> waiting = theirs.acquireAsync();
        await().atMost(WAIT).until(() -> gauge(rb, "baton.lock.waiters", orders) == 1);
        mine.release();
        assertThat(timed(ra, "baton.lock.held", orders)).isEqualTo(1);
        assertThat(gauge(ra, "baton.lock.holders", orders)).isZero();
        LockLease lease = waiting.get();
        assertHoldersAndWaiters(rb, orders, 1, 0);

        // the holder's session expires: a loss, and the hold ends
        SessionKiller.expire(b, ensemble.connectString(), WAIT);
        awaitOneLossAndNoHolder(rb, orders);
        assertThat(lease.isValid()).isFalse();
        await().atMost(WAIT).until(() -> b.connectionState() == ConnectionState.RECONNECTED);

        // a lock whose path was not named shares name=unnamed
        InterProcessMutex other = new InterProcessMutex(a, "/m/other-lock-4711");
        other.acquire();
        other.release();
        assertThat(timed(ra, "baton.lock.acquire", "name", BatonMetrics.UNNAMED, "outcome", "acquired")).isEqualTo(1);
        assertNoMeterTaggedWith(ra, "a path", value -> value.contains("/"));
    }

    @Test
    void readWriteLockMetersShowBothSides(BatonClient a, BatonClient b) throws Exception {
        MeterRegistry ra = bound(a, "catalog", "/m/rw");
        MeterRegistry rb = bound(b, "catalog", "/m/rw");
        InterProcessReadWriteLock mine = new InterProcessReadWriteLock(a, "/m/rw");
        InterProcessReadWriteLock theirs = new InterProcessReadWriteLock(b, "/m/rw");
        String[] write = {"recipe", "rwlock-write", "name", "catalog"};
        String[] read = {"recipe", "rwlock-read", "name", "catalog"};

        WriteLease writing = mine.writeLock().acquireLease();
        assertThat(timed(ra, "baton.lock.acquire", "recipe", "rwlock-write", "name", "catalog", "outcome", "acquired")).isEqualTo(1);
        assertThat(gauge(ra, "baton.lock.holders", write)).isEqualTo(1);

        assertThat(theirs.readLock().acquire(Duration.ofMillis(200))).isFalse();
        assertThat(timed(rb, "baton.lock.acquire", "recipe", "rwlock-read", "name", "catalog", "outcome", "timed-out")).isEqualTo(1);
        assertThat(theirs.writeLock().acquire(Duration.ZERO)).isFalse();
        assertThat(timed(rb, "baton.lock.acquire", "recipe", "rwlock-write", "outcome", "timed-out")).isEqualTo(1);

        CompletableFuture<WriteLease> waiting = theirs.writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> gauge(rb, "baton.lock.waiters", write) == 1);

        // a downgrade is a read hold granted at once, and still works with the write hold observed
        ReadLease reading = writing.downgrade();
        assertThat(timed(ra, "baton.lock.acquire", "recipe", "rwlock-read", "outcome", "acquired")).isEqualTo(1);
        assertThat(gauge(ra, "baton.lock.holders", read)).isEqualTo(1);
        writing.release();
        assertThat(timed(ra, "baton.lock.held", write)).isEqualTo(1);
        assertThat(gauge(ra, "baton.lock.holders", write)).isZero();
        assertThat(waiting).as("the writer waits for the downgraded reader").isNotDone();
        reading.release();
        assertThat(timed(ra, "baton.lock.held", read)).isEqualTo(1);
        assertThat(gauge(ra, "baton.lock.holders", read)).isZero();

        WriteLease theirWrite = waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertHoldersAndWaiters(rb, write, 1, 0);

        // the writer's node is deleted under it: a write loss, and the hold ends
        a.delete().forPath(theirWrite.nodePaths().get(0));
        awaitOneLossAndNoHolder(rb, write);
        assertThat(theirWrite.isValid()).isFalse();
        theirWrite.releaseQuietly();

        // the same for a reader
        theirs.readLock().acquire();
        assertThat(gauge(rb, "baton.lock.holders", read)).isEqualTo(1);
        a.delete().forPath(theirs.participantNodes().get(0));
        awaitOneLossAndNoHolder(rb, read);
        assertThatThrownBy(() -> theirs.readLock().release()).as("the loss is still loud to the holder")
            .hasMessageContaining("lost");
        assertNoMeterTaggedWith(rb, "a path", value -> value.contains("/"));
    }

    @Test
    void aSharedTicketMutexCountsEachLocalCallerAsAWaiterAndAHolder(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "local", "/m/shared-mutex");
        InterProcessMutex mutex = new InterProcessMutex(a, "/m/shared-mutex", SharedTicket.defaults());
        String[] local = {"recipe", "mutex", "name", "local"};
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            LockLease first = mutex.acquireLease();
            Future<LockLease> second = threads.submit(() -> mutex.acquireLease());
            Future<LockLease> third = threads.submit(() -> mutex.acquireLease());
            // both wait behind the process's node, in memory: callers waiting all the same
            await().atMost(WAIT).untilAsserted(() ->
                assertThat(gauge(registry, "baton.lock.waiters", local)).as("local callers waiting").isEqualTo(2));
            assertThat(gauge(registry, "baton.lock.holders", local)).isEqualTo(1);

            first.release();
            await().atMost(WAIT).until(() -> second.isDone() || third.isDone());
            Future<LockLease> handedOn = second.isDone() ? second : third;
            Future<LockLease> last = handedOn == second ? third : second;
            assertHoldersAndWaiters(registry, local, 1, 1);
            assertThat(handedOn.get().holdToken().handOff()).as("an observed local hold keeps its hand-off number").isEqualTo(1);
            handedOn.get().release();
            LockLease lastLease = last.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertHoldersAndWaiters(registry, local, 1, 0);
            lastLease.release();

            assertThat(timed(registry, "baton.lock.acquire", "name", "local", "outcome", "acquired")).as("one wait per caller").isEqualTo(3);
            assertThat(timed(registry, "baton.lock.held", local)).as("one hold per caller").isEqualTo(3);
            assertThat(gauge(registry, "baton.lock.holders", local)).isZero();

            // a local hold's loss is counted once, and ends the hold
            LockLease doomed = mutex.acquireLease();
            a.delete().forPath(mutex.participantNodes().get(0));
            awaitOneLossAndNoHolder(registry, local);
            doomed.releaseQuietly();
            assertThat(timed(registry, "baton.lock.held", local)).isEqualTo(4);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aLocalWaiterIsCountedOnceInMemoryOrInLineAndNoLongerOnceItTimesOutOrIsInterrupted(BatonClient a, BatonClient b)
        throws Exception {
        MeterRegistry registry = bound(a, "crowd", "/m/shared-crowd");
        InterProcessMutex mutex = new InterProcessMutex(a, "/m/shared-crowd", SharedTicket.defaults());
        InterProcessMutex elsewhere = new InterProcessMutex(b, "/m/shared-crowd");
        String[] crowd = {"recipe", "mutex", "name", "crowd"};
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            elsewhere.acquire();
            // the first local caller takes the process's node, which waits in line behind the other process
            Future<LockLease> taker = threads.submit(() -> mutex.acquireLease());
            await().atMost(WAIT).until(() -> mutex.participantNodes().size() == 2);
            Future<LockLease> queued = threads.submit(() -> mutex.acquireLease());
            await().atMost(WAIT).untilAsserted(() ->
                assertThat(gauge(registry, "baton.lock.waiters", crowd)).as("the taker and a caller queued behind it").isEqualTo(2));

            // a caller that times out in memory leaves the gauge
            assertThat(mutex.acquireAsync(Duration.ofMillis(100)).get(WAIT.toSeconds(), TimeUnit.SECONDS)).isNull();
            assertThat(timed(registry, "baton.lock.acquire", "name", "crowd", "outcome", "timed-out")).isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.waiters", crowd)).isEqualTo(2);

            // the taker is interrupted: the queued caller takes a node in line now, and is still one waiter
            taker.cancel(true);
            await().atMost(WAIT).until(() -> timed(registry, "baton.lock.acquire", "name", "crowd", "outcome", "failed") == 1);
            assertThat(gauge(registry, "baton.lock.waiters", crowd)).isEqualTo(1);

            elsewhere.release();
            LockLease lease = queued.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertHoldersAndWaiters(registry, crowd, 1, 0);
            lease.release();
            assertThat(gauge(registry, "baton.lock.holders", crowd)).isZero();
            assertThat(timed(registry, "baton.lock.acquire", "name", "crowd", "outcome", "acquired")).as("the node's wait is not a second one")
                .isEqualTo(1);
            assertThat(timed(registry, "baton.lock.acquire", "name", "crowd", "outcome", "failed")).isEqualTo(1);
            assertThat(timed(registry, "baton.lock.acquire", "name", "crowd", "outcome", "timed-out")).isEqualTo(1);
            assertThat(timed(registry, "baton.lock.held", crowd)).isEqualTo(1);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aSharedTicketReadWriteLockReportsEachLocalHold(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "shared", "/m/rw-shared");
        InterProcessReadWriteLock lock = new InterProcessReadWriteLock(a, "/m/rw-shared", SharedTicket.defaults());

        WriteLease writing = lock.writeLock().acquireLease();
        ReadLease reading = writing.downgrade();
        writing.release();
        reading.release();

        assertThat(timed(registry, "baton.lock.acquire", "recipe", "rwlock-write", "name", "shared", "outcome", "acquired")).isEqualTo(1);
        assertThat(timed(registry, "baton.lock.acquire", "recipe", "rwlock-read", "name", "shared", "outcome", "acquired")).isEqualTo(1);
        assertThat(timed(registry, "baton.lock.held", "recipe", "rwlock-write")).isEqualTo(1);
        assertThat(timed(registry, "baton.lock.held", "recipe", "rwlock-read")).isEqualTo(1);
        assertThat(gauge(registry, "baton.lock.holders", "recipe", "rwlock-write", "name", "shared")).isZero();
        assertThat(gauge(registry, "baton.lock.holders", "recipe", "rwlock-read", "name", "shared")).isZero();

        // two local readers share one read node: two holders, two holds
        ReadLease one = lock.readLock().acquireLease();
        ReadLease two = lock.readLock().acquireLease();
        assertThat(gauge(registry, "baton.lock.holders", "recipe", "rwlock-read", "name", "shared")).isEqualTo(2);
        one.release();
        two.release();
        assertThat(gauge(registry, "baton.lock.holders", "recipe", "rwlock-read", "name", "shared")).isZero();
        assertThat(timed(registry, "baton.lock.held", "recipe", "rwlock-read")).isEqualTo(3);
    }

    @Test
    void aSharedTicketSemaphoreCountsACallerWaitingInMemory(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "shared-pool", "/m/sem-shared");
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(a, "/m/sem-shared", 1, SharedTicket.defaults());
        String[] pool = {"recipe", "semaphore", "name", "shared-pool"};
        Lease lease = semaphore.acquire();
        CompletableFuture<Lease> waiting = semaphore.acquireAsync();
        await().atMost(WAIT).untilAsserted(() ->
            assertThat(gauge(registry, "baton.lock.waiters", pool)).as("a caller waiting in memory").isEqualTo(1));
        semaphore.returnLease(lease);
        Lease next = waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertHoldersAndWaiters(registry, pool, 1, 0);
        semaphore.returnLease(next);
        assertThat(gauge(registry, "baton.lock.holders", pool)).isZero();
        assertThat(timed(registry, "baton.lock.acquire", "name", "shared-pool", "outcome", "acquired")).isEqualTo(2);
        assertThat(timed(registry, "baton.lock.held", pool)).isEqualTo(2);
    }

    @Test
    void semaphoreLeasesAreMeasured(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "pool", "/m/sem");
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(a, "/m/sem", 1);
        Lease lease = semaphore.acquire();
        assertThat(semaphore.acquire(Duration.ZERO)).isNull();
        assertThat(gauge(registry, "baton.lock.holders", "recipe", "semaphore", "name", "pool")).isEqualTo(1);
        semaphore.returnLease(lease);
        assertThat(timed(registry, "baton.lock.acquire", "recipe", "semaphore", "outcome", "acquired")).isEqualTo(1);
        assertThat(timed(registry, "baton.lock.acquire", "recipe", "semaphore", "outcome", "timed-out")).isEqualTo(1);
        assertThat(timed(registry, "baton.lock.held", "recipe", "semaphore")).isEqualTo(1);
        assertThat(gauge(registry, "baton.lock.holders", "recipe", "semaphore", "name", "pool")).isZero();
    }

    @Test
    void aFailoverFlipsTheLeaderGaugeOnBothSides(BatonClient a, BatonClient b) throws Exception {
        MeterRegistry ra = bound(a, "scheduler", "/m/election");
        MeterRegistry rb = bound(b, "scheduler", "/m/election");
        String[] scheduler = {"recipe", "latch", "name", "scheduler"};
        try (LeaderLatch first = new LeaderLatch(a, "/m/election", "a"); LeaderLatch second = new LeaderLatch(b, "/m/election", "b")) {
            first.start();
            assertThat(first.await(WAIT)).isTrue();
            second.start();
            assertThat(gauge(ra, "baton.election.leader", scheduler)).isEqualTo(1);
            assertThat(gauge(rb, "baton.election.leader", scheduler)).isZero();

            SessionKiller.expire(a, ensemble.connectString(), WAIT);

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(gauge(rb, "baton.election.leader", scheduler)).isEqualTo(1);
                assertThat(gauge(ra, "baton.election.leader", scheduler)).isZero();
            });
            assertThat(count(ra, "baton.election.leadership.losses", scheduler)).isEqualTo(1);
            assertThat(timed(ra, "baton.election.leadership", scheduler)).isEqualTo(1);
            assertThat(count(rb, "baton.election.terms", scheduler)).isEqualTo(1);
            assertThat(count(rb, "baton.election.leadership.losses", scheduler)).isZero();
        }
        assertThat(gauge(rb, "baton.election.leader", scheduler)).as("closing gives leadership up").isZero();
        assertThat(count(rb, "baton.election.leadership.losses", scheduler)).as("given up, not lost").isZero();
    }

    @Test
    void aTermInProgressIsTimedWhileItLastsNotOnlyWhenItEnds(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "reports", "/m/long-term");
        String[] reports = {"recipe", "latch", "name", "reports"};
        try (LeaderLatch latch = new LeaderLatch(a, "/m/long-term", "a")) {
            latch.start();
            assertThat(latch.await(WAIT)).isTrue();
            // a leader of a week records nothing in baton.election.leadership until its term ends: this shows it now
            LongTaskTimer leading = registry.find("baton.election.leading").tags(reports).longTaskTimer();
            assertThat(leading).as("a long task timer of the terms in progress").isNotNull();
            assertThat(leading.activeTasks()).isEqualTo(1);
            double first = leading.duration(TimeUnit.NANOSECONDS);
            await().atMost(WAIT).until(() -> leading.duration(TimeUnit.NANOSECONDS) > first);
            assertThat(timed(registry, "baton.election.leadership", reports)).as("the term has not ended").isZero();
        }
        LongTaskTimer leading = registry.get("baton.election.leading").tags(reports).longTaskTimer();
        assertThat(leading.activeTasks()).isZero();
        assertThat(timed(registry, "baton.election.leadership", reports)).isEqualTo(1);
    }

    @Test
    void anElectionObserverShowsWhetherTheElectionItFollowsHasALeader(BatonClient a, BatonClient b) throws Exception {
        MeterRegistry registry = bound(a, "billing", "/m/observed");
        try (ElectionObserver observer = new ElectionObserver(a, "/m/observed")) {
            observer.start();
            await().atMost(WAIT).until(() -> count(registry, "baton.election.observed.changes", "name", "billing") == 1);
            assertThat(gauge(registry, "baton.election.observed.leader", "name", "billing")).as("nobody runs yet").isZero();
            try (LeaderLatch latch = new LeaderLatch(b, "/m/observed", "b")) {
                latch.start();
                await().atMost(WAIT).until(() -> gauge(registry, "baton.election.observed.leader", "name", "billing") == 1);
            }
            await().atMost(WAIT).until(() -> gauge(registry, "baton.election.observed.leader", "name", "billing") == 0);
            assertThat(count(registry, "baton.election.observed.changes", "name", "billing")).isEqualTo(3);
        }
    }

    @Test
    void barrierWaitsAreTimedByOutcomeAndTheirWaitersShown(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "deploy", "/m/gate");
        String[] gate = {"recipe", "barrier", "name", "deploy"};
        DistributedBarrier barrier = new DistributedBarrier(a, "/m/gate");
        barrier.setBarrier();
        assertThat(barrier.waitOnBarrier(Duration.ofMillis(100))).isFalse();
        assertThat(timed(registry, "baton.barrier.wait", "recipe", "barrier", "name", "deploy", "outcome", "timed-out")).isEqualTo(1);

        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
            try {
                barrier.waitOnBarrier();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(WAIT).until(() -> gauge(registry, "baton.barrier.waiters", gate) == 1);
        barrier.removeBarrier();
        waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(gauge(registry, "baton.barrier.waiters", gate)).isZero();
        assertThat(timed(registry, "baton.barrier.wait", "recipe", "barrier", "name", "deploy", "outcome", "passed")).isEqualTo(1);

        DistributedCountDownLatch latch = new DistributedCountDownLatch(a, "/m/count");
        assertThat(latch.trySetCount(1)).isTrue();
        latch.countDown();
        latch.await();
        assertThat(timed(registry, "baton.barrier.wait", "recipe", "countdown-latch", "outcome", "passed")).isEqualTo(1);

        DistributedDoubleBarrier twice = new DistributedDoubleBarrier(a, "/m/double", 1);
        twice.enter();
        String member = twice.memberName();
        twice.leave();
        assertThat(timed(registry, "baton.barrier.wait", "recipe", "double-barrier-enter", "outcome", "passed")).isEqualTo(1);
        assertThat(timed(registry, "baton.barrier.wait", "recipe", "double-barrier-leave", "outcome", "passed")).isEqualTo(1);
        assertNoMeterTaggedWith(registry, "a path or a member's node", value -> value.contains("/") || value.equals(member));
    }

    @Test
    void theDepthFallsAsAConsumerTakesFromOneListing(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "drain", "/m/drain");
        SimpleDistributedQueue queue = new SimpleDistributedQueue(a, "/m/drain");
        for (int i = 0; i < 5; i++) {
            queue.offer(("job " + i).getBytes(StandardCharsets.UTF_8));
        }
        // one consumer, nobody else: the first take lists five items, and the takes after it work through that listing
        for (int taken = 1; taken <= 3; taken++) {
            assertThat(queue.poll()).isNotNull();
            assertThat(gauge(registry, "baton.queue.depth", "name", "drain")).as("depth after %d of 5 taken", taken).isEqualTo(5 - taken);
        }
        assertThat(queue.take()).isNotNull();
        assertThat(queue.poll(Duration.ofSeconds(5))).isNotNull();
        assertThat(gauge(registry, "baton.queue.depth", "name", "drain")).as("drained").isZero();
    }

    @Test
    void queueCountersFollowPutsTakesAndDeadLetters(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "jobs", "/m/simple");
        SimpleDistributedQueue queue = new SimpleDistributedQueue(a, "/m/simple");
        for (int i = 0; i < 3; i++) {
            queue.offer(("job " + i).getBytes(StandardCharsets.UTF_8));
        }
        assertThat(queue.poll()).isNotNull();
        assertThat(queue.size()).isEqualTo(2);
        assertThat(count(registry, "baton.queue.items.put", "name", "jobs")).isEqualTo(3);
        assertThat(count(registry, "baton.queue.items.taken", "name", "jobs")).isEqualTo(1);
        assertThat(gauge(registry, "baton.queue.depth", "name", "jobs")).isEqualTo(2);
        assertThat(queue.take()).isNotNull();
        assertThat(queue.poll(Duration.ofSeconds(5))).isNotNull();
        assertThat(queue.poll(Duration.ofMillis(100))).isNull();
        assertThat(timed(registry, "baton.queue.take", "name", "jobs", "outcome", "item")).isEqualTo(2);
        assertThat(timed(registry, "baton.queue.take", "name", "jobs", "outcome", "timed-out")).isEqualTo(1);
        assertThat(count(registry, "baton.queue.items.taken", "name", "jobs")).isEqualTo(3);

        MeterRegistry work = bound(a, "work", "/m/work");
        QueueSerializer<String> text = new QueueSerializer<>() {
            @Override
            public byte[] serialize(String item) {
                return item.getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public String deserialize(byte[] bytes) {
                return new String(bytes, StandardCharsets.UTF_8);
            }
        };
        DistributedQueue<String> consumed = QueueBuilder.builder(a, item -> {
            if (item.startsWith("bad")) {
                throw new IllegalArgumentException("cannot do " + item);
            }
        }, text, "/m/work").maxDeliveryAttempts(1).buildQueue();
        try {
            consumed.start();
            consumed.putMulti(List.of("good 1", "bad 2"));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(count(work, "baton.queue.items.taken", "name", "work")).isEqualTo(2);
                assertThat(count(work, "baton.queue.items.dead.lettered", "name", "work")).isEqualTo(1);
            });
            assertThat(count(work, "baton.queue.items.put", "name", "work")).isEqualTo(2);
        } finally {
            consumed.close();
        }
    }

    @Test
    void discoveryMetersCountInstancesPicksAndDownMarks(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "unused", "/unused");
        try (ServiceDiscovery<String> discovery = ServiceDiscoveryBuilder.builder(String.class).client(a).basePath("/m/services").build()) {
            discovery.start();
            for (String id : List.of("o1", "o2")) {
                discovery.registerService(ServiceInstance.<String>builder().name("orders").id(id).address("10.0.0.1").port(8080)
                    .payload("eu").build());
            }
            ServiceProvider<String> provider = discovery.serviceProviderBuilder().serviceName("orders")
                .downInstancePolicy(new DownInstancePolicy(1, Duration.ofMinutes(1), Duration.ofMinutes(1))).build();
            provider.start();
            await().atMost(WAIT).until(() -> gauge(registry, "baton.discovery.instances", "service", "orders") == 2);
            ServiceInstance<String> picked = provider.getInstance();
            assertThat(picked).isNotNull();
            provider.noteError(picked);
            provider.noteError(picked);
            assertThat(count(registry, "baton.discovery.picks", "service", "orders", "strategy", "RoundRobinStrategy", "outcome", "found"))
                .isEqualTo(1);
            assertThat(count(registry, "baton.discovery.instances.down", "service", "orders")).as("counted once, when it went down").isEqualTo(1);
            discovery.unregisterService(discovery.queryForInstance("orders", "o2"));
            await().atMost(WAIT).until(() -> gauge(registry, "baton.discovery.instances", "service", "orders") == 1);
        }
    }

    @Test
    void configAndGroupMetersFollowWritesChangesAndMembers(BatonClient a, BatonClient b) throws Exception {
        MeterRegistry registry = bound(a, "flags", "/m/flags");
        MeterRegistry members = bound(a, "workers", "/m/group");
        try (SharedValue value = new SharedValue(a, "/m/flags", new byte[] {0});
             GroupMember one = new GroupMember(a, "/m/group", "one", new byte[0]);
             GroupMember two = new GroupMember(b, "/m/group", "two", new byte[0])) {
            value.start();
            value.setValue(new byte[] {1});
            assertThat(value.trySetValue(new dev.baton.recipes.config.VersionedValue<>(-5, new byte[] {9}), new byte[] {2})).isFalse();
            assertThat(count(registry, "baton.config.writes", "recipe", "shared-value", "name", "flags", "outcome", "success")).isEqualTo(1);
            assertThat(count(registry, "baton.config.writes", "recipe", "shared-value", "name", "flags", "outcome", "conflict")).isEqualTo(1);
            await().atMost(WAIT).until(() -> count(registry, "baton.config.changes", "recipe", "shared-value", "name", "flags") >= 1);

            one.start();
            two.start();
            await().atMost(WAIT).until(() -> gauge(members, "baton.group.members", "name", "workers") == 2);
        }
    }

    @Test
    void configStoreReleasesAndConflictsAreCounted(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "settings", "/m/config");
        String[] settings = {"recipe", "config-store", "name", "settings"};
        try (ConfigStore store = ConfigStore.builder(a, "/m/config").build()) {
            store.start();
            Release first = store.release().set("colour", "blue").commit();
            store.release().set("colour", "green").commit();
            assertThatThrownBy(() -> store.release().set("colour", "red").onlyIfRelease(first.number()).commit())
                .isInstanceOf(ReleaseConflictException.class);
            assertThat(count(registry, "baton.config.writes", "recipe", "config-store", "name", "settings", "outcome", "success"))
                .isEqualTo(2);
            assertThat(count(registry, "baton.config.writes", "recipe", "config-store", "name", "settings", "outcome", "conflict"))
                .isEqualTo(1);
            await().atMost(WAIT).until(() -> count(registry, "baton.config.changes", settings) >= 1);
        }
    }

    @Test
    void aWatchingProcessTimesHowLongEachReleaseTookToReachItAndShowsTheReleaseItIsAt(BatonClient a, BatonClient b) throws Exception {
        MeterRegistry watching = bound(b, "flags", "/m/config-lag");
        String[] flags = {"recipe", "config-store", "name", "flags"};
        // the writer's clock two seconds behind: the lag a watcher sees holds the difference of the clocks
        Clock behind = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-2));
        try (ConfigStore writer = ConfigStore.builder(a, "/m/config-lag").clock(behind).build();
             ConfigStore watcher = ConfigStore.builder(b, "/m/config-lag").build()) {
            writer.start();
            watcher.start();
            assertThat(watcher.awaitInitialized(WAIT)).isTrue();
            writer.release().set("dark-mode", "on").commit();
            Release second = writer.release().set("dark-mode", "off").commit();
            await().atMost(WAIT).until(() -> gauge(watching, "baton.config.release", flags) == second.number());
            Timer lag = watching.find("baton.config.release.lag").tags(flags).timer();
            assertThat(lag).isNotNull();
            assertThat(lag.count()).as("one per release the watcher showed, up to two").isBetween(1L, 2L);
            assertThat(lag.max(TimeUnit.MILLISECONDS)).as("two seconds of clock difference and the way there")
                .isBetween(2000.0, 2000.0 + WAIT.toMillis());
        }
    }

    @Test
    void aReleaseThatChangesNothingIsNotCountedAsAWrite(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "deploys", "/m/config-again");
        String[] written = {"recipe", "config-store", "name", "deploys", "outcome", "success"};
        try (ConfigStore store = ConfigStore.builder(a, "/m/config-again").build()) {
            store.start();
            Release first = store.release().set("colour", "blue").commit();
            // every deploy imports the same settings again: the store writes nothing and takes no number
            Release again = store.release().set("colour", "blue").commit();
            assertThat(again.changes()).isEmpty();
            assertThat(again.number()).isEqualTo(first.number());
            assertThat(count(registry, "baton.config.writes", written)).as("one release written").isEqualTo(1);
        }
    }

    @Test
    void aRollbackIsCountedAsAWrite(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "rolled", "/m/config-rollback");
        String[] written = {"recipe", "config-store", "name", "rolled", "outcome", "success"};
        try (ConfigStore store = ConfigStore.builder(a, "/m/config-rollback").build()) {
            store.start();
            Release blue = store.release().set("colour", "blue").commit();
            store.release().set("colour", "red").commit();
            Release back = store.rollback(blue.number());
            assertThat(back.changes()).as("red back to blue").hasSize(1);
            assertThat(count(registry, "baton.config.writes", written)).as("two releases and the rollback's").isEqualTo(3);
        }
    }

    @Test
    void transactionMetersCountOutcomesByCausePreparesAndWhatParticipantsWereTold(BatonClient a, BatonClient b) throws Exception {
        MeterRegistry coordinating = bound(a, "orders", "/m/tx");
        MeterRegistry participating = bound(b, "orders", "/m/tx");
        String[] orders = {"name", "orders"};
        try (TransactionCoordinator coordinator = TransactionCoordinator.builder(a, "/m/tx").build();
             TransactionParticipant billing = TransactionParticipant.builder(b, "/m/tx", "billing", votes("billing")).build();
             TransactionParticipant stock = TransactionParticipant.builder(b, "/m/tx", "stock", votes("stock")).build()) {
            // "ghost" is registered but never runs again: a transaction naming it can only end at its deadline
            try (TransactionParticipant ghost = TransactionParticipant.builder(b, "/m/tx", "ghost", votes("ghost")).build()) {
                ghost.start();
            }
            billing.start();
            stock.start();

            Decision committed = coordinator.start(Set.of("billing", "stock"), bytes("go"), Duration.ofSeconds(10)).await(WAIT);
            assertThat(committed.isCommit()).isTrue();
            assertThat(count(coordinating, "baton.transaction.started", orders)).isEqualTo(1);
            assertThat(count(coordinating, "baton.transaction.outcomes", "name", "orders", "outcome", "commit", "cause", "all-voted-commit"))
                .isEqualTo(1);
            assertThat(timed(coordinating, "baton.transaction.decision", "name", "orders", "outcome", "commit")).isEqualTo(1);
            await().atMost(WAIT).until(() -> count(participating, "baton.transaction.told", "name", "orders", "outcome", "commit",
                "result", "handled") == 2);
            assertThat(timed(participating, "baton.transaction.prepare", "name", "orders", "vote", "commit")).isEqualTo(2);

            // stock refuses "stock-out": its abort vote decides
            Decision refused = coordinator.start(Set.of("billing", "stock"), bytes("stock-out"), Duration.ofSeconds(10)).await(WAIT);
            assertThat(refused.isCommit()).isFalse();
            assertThat(count(coordinating, "baton.transaction.outcomes", "name", "orders", "outcome", "abort", "cause", "vote-abort"))
                .isEqualTo(1);
            assertThat(timed(participating, "baton.transaction.prepare", "name", "orders", "vote", "abort")).isEqualTo(1);
            await().atMost(WAIT).until(() -> count(participating, "baton.transaction.told", "name", "orders", "outcome", "abort",
                "result", "handled") == 2);

            // the ghost never votes: aborted at the deadline (by the coordinator or by stock, whichever writes first)
            Decision late = coordinator.start(Set.of("stock", "ghost"), bytes("go"), Duration.ofMillis(300)).await(WAIT);
            assertThat(late.isCommit()).isFalse();
            assertThat(count(coordinating, "baton.transaction.outcomes", "name", "orders", "outcome", "abort", "cause", "deadline"))
                .isEqualTo(1);
            assertThat(count(coordinating, "baton.transaction.outcomes", orders)).isEqualTo(3);
            assertThat(count(coordinating, "baton.transaction.started", orders)).isEqualTo(3);
            assertThat(timed(coordinating, "baton.transaction.decision", "name", "orders", "outcome", "abort")).isEqualTo(2);
            assertThat(coordinating.get("baton.transaction.decision").tags("outcome", "abort").timer().max(TimeUnit.MILLISECONDS))
                .as("timed from the start, so the deadline's abort took at least the deadline").isGreaterThanOrEqualTo(300);
            await().atMost(WAIT).until(() -> count(participating, "baton.transaction.told", "name", "orders", "outcome", "abort",
                "result", "handled") == 3);
            // (billing need not prepare the refused one, nor stock the late one: a site that first sees a decision is only told it)
        }
        for (MeterRegistry registry : List.of(coordinating, participating)) {
            assertNoMeterTaggedWith(registry, "a path, transaction or participant", value -> value.contains("/") || value.contains("_c_")
                || List.of("billing", "stock", "ghost").contains(value));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Votes commit, except that {@code stock} refuses a payload of "stock-out". */
    private static TransactionHandler votes(String me) {
        return new TransactionHandler() {
            @Override
            public Vote prepare(Transaction tx) {
                return me.equals("stock") && new String(tx.payload(), StandardCharsets.UTF_8).equals("stock-out") ? Vote.ABORT : Vote.COMMIT;
            }

            @Override
            public void commit(Transaction tx) {
            }

            @Override
            public void abort(Transaction tx) {
            }
        };
    }
}

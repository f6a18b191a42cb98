package dev.baton.metrics;

import static dev.baton.metrics.Meters.count;
import static dev.baton.metrics.Meters.gauge;
import static dev.baton.metrics.Meters.timed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.Lease;
import dev.baton.recipes.lock.LockLease;
import dev.baton.recipes.lock.LockOwnershipLostException;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.recipes.rwlock.ReadLease;
import dev.baton.recipes.rwlock.WriteLease;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lock meters stay true when the session of a shared-ticket process expires while its local
 * callers hold and wait in memory: the hold on the lost node is one loss and no longer a holder,
 * the callers waiting in memory stay counted as waiting until they hold on the process's new node,
 * each hold after the expiry is a new acquisition, and once every caller has returned the
 * {@code holders} and {@code waiters} gauges read 0. Against a real server; the session is ended
 * by the servers ({@link SessionKiller}), not simulated.
 */
@EnsembleTest
class SharedTicketExpiryMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    private ExecutorService threads;

    @BeforeEach
    void threads() {
        threads = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static MeterRegistry bound(BatonClient client, String name, String path) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BatonMetrics.builder(client).name(name, path).build().bindTo(registry);
        return registry;
    }

    private static long acquired(MeterRegistry registry, String recipe, String name) {
        return timed(registry, "baton.lock.acquire", "recipe", recipe, "name", name, "outcome", "acquired");
    }

    private static long ended(MeterRegistry registry, String recipe, String name, String outcome) {
        return timed(registry, "baton.lock.acquire", "recipe", recipe, "name", name, "outcome", outcome);
    }

    /** The first of two waits to end, then the other: their order is the line's, not the test's. */
    private static <T> List<Future<T>> firstDone(Future<T> one, Future<T> other) {
        await("one of the waiters holds").atMost(WAIT).until(() -> one.isDone() || other.isDone());
        return one.isDone() ? List.of(one, other) : List.of(other, one);
    }

    @Test
    void aLocalHoldersExpiryIsOneLossAndTheCallersWaitingInMemoryStayWaitersUntilTheyHoldOnANewNode(BatonClient a)
        throws Exception {
        MeterRegistry registry = bound(a, "expiring", "/x/mutex");
        InterProcessMutex mutex = new InterProcessMutex(a, "/x/mutex", SharedTicket.defaults());
        String[] tags = {"recipe", "mutex", "name", "expiring"};

        LockLease holder = mutex.acquireLease();
        Future<LockLease> async = mutex.acquireAsync();
        Future<LockLease> blocking = threads.submit(() -> mutex.acquireLease());
        await().atMost(WAIT).untilAsserted(() ->
            assertThat(gauge(registry, "baton.lock.waiters", tags)).as("two callers waiting in memory").isEqualTo(2));
        assertThat(gauge(registry, "baton.lock.holders", tags)).isEqualTo(1);

        SessionKiller.expire(a, ensemble.connectString(), WAIT);

        // the lost hold is one loss; one waiter then holds on the process's new node: a new acquisition
        // the meters move one after another (a loss is counted before its hold ends, an acquisition's time before it
        // is a holder): judged together once the lost hold's time is recorded, the last of its steps
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(count(registry, "baton.lock.losses", tags)).as("losses").isEqualTo(1);
            assertThat(acquired(registry, "mutex", "expiring")).as("acquisitions").isEqualTo(2);
            assertThat(timed(registry, "baton.lock.held", tags)).as("the lost hold ended").isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.holders", tags)).as("the lost hold is no longer a holder").isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.waiters", tags)).as("the other caller still waits in memory").isEqualTo(1);
        });
        assertThat(holder.isValid()).isFalse();
        List<Future<LockLease>> inOrder = firstDone(async, blocking);
        LockLease next = inOrder.get(0).get();
        assertThat(next.nodePaths()).as("a new node").isNotEqualTo(holder.nodePaths());
        assertThat(next.holdToken().isAfter(holder.holdToken())).isTrue();

        assertThatThrownBy(holder::release).isInstanceOf(LockOwnershipLostException.class);
        assertThat(count(registry, "baton.lock.losses", tags)).as("the release of a lost hold is no second loss").isEqualTo(1);
        assertThat(gauge(registry, "baton.lock.holders", tags)).isEqualTo(1);

        next.release();
        LockLease last = inOrder.get(1).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(last.holdToken().handOff()).as("handed on in memory on the new node").isEqualTo(1);
        assertThat(gauge(registry, "baton.lock.waiters", tags)).isZero();
        assertThat(gauge(registry, "baton.lock.holders", tags)).isEqualTo(1);
        last.release();

        assertThat(gauge(registry, "baton.lock.holders", tags)).isZero();
        assertThat(gauge(registry, "baton.lock.waiters", tags)).isZero();
        assertThat(acquired(registry, "mutex", "expiring")).isEqualTo(3);
        assertThat(ended(registry, "mutex", "expiring", "failed")).isZero();
        assertThat(ended(registry, "mutex", "expiring", "timed-out")).isZero();
        assertThat(timed(registry, "baton.lock.held", tags)).as("the lost hold's time ended with its loss").isEqualTo(3);
        assertThat(count(registry, "baton.lock.losses", tags)).isEqualTo(1);
    }

    /**
     * The window the shared-ticket mode documents: the servers ended the session, the client has not
     * heard yet (its connection is cut; under {@code SESSION_ONLY} the hold stays valid meanwhile),
     * and a release hands the lock on in memory. That hand-off is an acquisition on a node already
     * gone: once the client hears, it is the one loss, and the caller after it holds on a new node.
     */
    @Test
    void aHandOffMadeAfterTheServersEndedTheSessionButBeforeTheClientHeardIsTheLoss() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient victim = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 // long enough that the client's own session clock cannot end the hold while the test cuts, expires and
                 // hands on (a busy machine); once healed it hears of the expiry at once, so the length costs nothing
                 .sessionTimeout(Duration.ofSeconds(60)).errorPolicy(ErrorPolicy.SESSION_ONLY))) {
            MeterRegistry registry = bound(victim, "window", "/x/window");
            InterProcessMutex mutex = new InterProcessMutex(victim, "/x/window", SharedTicket.defaults());
            String[] tags = {"recipe", "mutex", "name", "window"};

            LockLease holder = mutex.acquireLease();
            Future<LockLease> async = mutex.acquireAsync();
            Future<LockLease> blocking = threads.submit(() -> mutex.acquireLease());
            await().atMost(WAIT).untilAsserted(() ->
                assertThat(gauge(registry, "baton.lock.waiters", tags)).as("two callers waiting in memory").isEqualTo(2));

            proxy.cut();
            await().atMost(WAIT).until(() -> victim.connectionState() == ConnectionState.SUSPENDED);
            SessionKiller.expire(victim, ensemble.connectString(), WAIT);
            assertThat(holder.isValid()).as("the client has not heard").isTrue();
            holder.release(); // handed on in memory: nothing asks the servers
            List<Future<LockLease>> inOrder = firstDone(async, blocking);
            LockLease doomed = inOrder.get(0).get();
            assertThat(doomed.holdToken().handOff()).isEqualTo(1);
            assertThat(acquired(registry, "mutex", "window")).isEqualTo(2);
            assertThat(gauge(registry, "baton.lock.holders", tags)).isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.waiters", tags)).isEqualTo(1);

            proxy.heal();

            LockLease next = inOrder.get(1).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(count(registry, "baton.lock.losses", tags)).as("losses").isEqualTo(1);
                assertThat(timed(registry, "baton.lock.held", tags)).as("the released hold and the lost one ended").isEqualTo(2);
                assertThat(gauge(registry, "baton.lock.holders", tags)).as("the lost hold is no longer a holder").isEqualTo(1);
                assertThat(gauge(registry, "baton.lock.waiters", tags)).isZero();
            });
            assertThat(doomed.isValid()).isFalse();
            assertThat(next.holdToken().isAfter(doomed.holdToken())).as("a new node's token").isTrue();
            assertThatThrownBy(doomed::release).isInstanceOf(LockOwnershipLostException.class);
            next.release();

            assertThat(gauge(registry, "baton.lock.holders", tags)).isZero();
            assertThat(gauge(registry, "baton.lock.waiters", tags)).isZero();
            assertThat(acquired(registry, "mutex", "window")).isEqualTo(3);
            assertThat(timed(registry, "baton.lock.held", tags)).isEqualTo(3);
            assertThat(count(registry, "baton.lock.losses", tags)).as("the hold released before the loss is not one").isEqualTo(1);
        }
    }

    /**
     * Under {@code SESSION_ONLY} a disconnection shorter than the session is no loss: the meters keep
     * the hold a holder and count nothing through the cut and the reconnection. The session's end is
     * then the one loss, and the hold's time runs until it (through the disconnection), not until the
     * connection dropped.
     */
    @Test
    void underSessionOnlyAHoldOutlivesADisconnectionAndItsSessionsExpiryIsTheOneLoss() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient victim = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 // far longer than the cut: the disconnection must stay shorter than the session on a busy machine
                 .sessionTimeout(Duration.ofSeconds(60)).errorPolicy(ErrorPolicy.SESSION_ONLY))) {
            MeterRegistry registry = bound(victim, "patient", "/x/patient");
            InterProcessMutex mutex = new InterProcessMutex(victim, "/x/patient", SharedTicket.defaults());
            String[] tags = {"recipe", "mutex", "name", "patient"};

            LockLease holder = mutex.acquireLease();
            long heldSince = System.nanoTime();
            Future<LockLease> waiting = mutex.acquireAsync();
            await().atMost(WAIT).untilAsserted(() ->
                assertThat(gauge(registry, "baton.lock.waiters", tags)).as("a caller waiting in memory").isEqualTo(1));
            List<ConnectionState> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
            // added after the hold's own listener: it hears each change after the hold did
            victim.addConnectionStateListener((client, state) -> heard.add(state));

            proxy.cut();
            await().atMost(WAIT).until(() -> heard.contains(ConnectionState.SUSPENDED));
            eventsDrained(victim);
            assertThat(count(registry, "baton.lock.losses", tags)).as("no loss at the disconnection").isZero();
            assertThat(timed(registry, "baton.lock.held", tags)).as("the hold has not ended").isZero();
            assertThat(gauge(registry, "baton.lock.holders", tags)).as("still a holder while cut off").isEqualTo(1);
            assertThat(holder.isValid()).isTrue();

            proxy.heal();
            await().atMost(WAIT).until(() -> heard.contains(ConnectionState.RECONNECTED));
            eventsDrained(victim);
            assertThat(count(registry, "baton.lock.losses", tags)).as("no loss at the reconnection").isZero();
            assertThat(gauge(registry, "baton.lock.holders", tags)).isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.waiters", tags)).isEqualTo(1);
            assertThat(holder.isValid()).as("the same session, the same hold").isTrue();
            assertThat(waiting).isNotDone();

            long expiring = System.nanoTime();
            SessionKiller.expire(victim, ensemble.connectString(), WAIT);

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(count(registry, "baton.lock.losses", tags)).as("losses").isEqualTo(1);
                assertThat(timed(registry, "baton.lock.held", tags)).as("the lost hold ended").isEqualTo(1);
            });
            assertThat(heldNanos(registry, tags)).as("the hold's time runs through the disconnection until the expiry")
                .isGreaterThanOrEqualTo(expiring - heldSince);
            assertThat(holder.isValid()).isFalse();
            LockLease next = waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(next.holdToken().isAfter(holder.holdToken())).as("on the process's new node").isTrue();
            assertThatThrownBy(holder::release).isInstanceOf(LockOwnershipLostException.class);
            next.release();

            assertThat(gauge(registry, "baton.lock.holders", tags)).isZero();
            assertThat(gauge(registry, "baton.lock.waiters", tags)).isZero();
            assertThat(acquired(registry, "mutex", "patient")).isEqualTo(2);
            assertThat(timed(registry, "baton.lock.held", tags)).isEqualTo(2);
            assertThat(count(registry, "baton.lock.losses", tags)).as("lost once, however often it was told").isEqualTo(1);
        }
    }

    private static double heldNanos(MeterRegistry registry, String... tags) {
        return registry.find("baton.lock.held").tags(tags).timers().stream()
            .mapToDouble(timer -> timer.totalTime(TimeUnit.NANOSECONDS)).sum();
    }

    /**
     * Returns once what a connection change put on the client's event executor has run, and what
     * that put there in turn: a hold's loss reaches the meters in a few hops on that executor (the
     * engine's hold, the process's line, the caller's hold), which runs one task at a time, in order.
     * A chain of more hops than that, started after the change was heard, ends after all of them.
     */
    private static void eventsDrained(BatonClient client) {
        CompletableFuture<Void> drained = new CompletableFuture<>();
        hop(client, 8, drained);
        await().atMost(WAIT).until(drained::isDone);
    }

    private static void hop(BatonClient client, int left, CompletableFuture<Void> drained) {
        client.eventExecutor().execute(() -> {
            if (left == 0) {
                drained.complete(null);
            } else {
                hop(client, left - 1, drained);
            }
        });
    }

    @Test
    void anExpiryWhileTheProcesssNodeWaitsBehindAnotherProcessLosesNothingAndEveryCallerStaysOneWaiterUntilItEnds(
        BatonClient a, BatonClient b) throws Exception {
        MeterRegistry registry = bound(a, "queued", "/x/queued");
        InterProcessMutex mutex = new InterProcessMutex(a, "/x/queued", SharedTicket.defaults());
        InterProcessMutex elsewhere = new InterProcessMutex(b, "/x/queued");
        String[] tags = {"recipe", "mutex", "name", "queued"};

        LockLease theirs = elsewhere.acquireLease();
        // a blocking taker puts the process's node in line behind the other process; an asynchronous caller waits in memory
        Future<LockLease> taker = threads.submit(() -> mutex.acquireLease());
        await().atMost(WAIT).until(() -> elsewhere.participantNodes().size() == 2);
        String queuedNode = elsewhere.participantNodes().get(1);
        Future<LockLease> inMemory = mutex.acquireAsync();
        Future<LockLease> givesUp = mutex.acquireAsync();
        await().atMost(WAIT).untilAsserted(() ->
            assertThat(gauge(registry, "baton.lock.waiters", tags)).as("the taker and two callers behind it").isEqualTo(3));

        SessionKiller.expire(a, ensemble.connectString(), WAIT);

        // the node went with the session: the process queues a new one, in its new session, behind the other process
        await("a new node in line").atMost(WAIT).untilAsserted(() -> {
            List<String> line = elsewhere.participantNodes();
            assertThat(line).hasSize(2).doesNotContain(queuedNode);
        });
        assertThat(gauge(registry, "baton.lock.waiters", tags)).as("every caller still waits").isEqualTo(3);
        assertThat(gauge(registry, "baton.lock.holders", tags)).isZero();
        assertThat(count(registry, "baton.lock.losses", tags)).as("nothing was held, nothing lost").isZero();
        assertThat(ended(registry, "mutex", "queued", "failed")).isZero();
        assertThat(taker).isNotDone();
        assertThat(inMemory).isNotDone();

        // a caller that gives up, or times out, behind the re-queued node is no longer a waiter
        givesUp.cancel(true);
        await().atMost(WAIT).until(() -> ended(registry, "mutex", "queued", "failed") == 1);
        assertThat(mutex.acquireAsync(Duration.ofMillis(100)).get(WAIT.toSeconds(), TimeUnit.SECONDS)).isNull();
        assertThat(ended(registry, "mutex", "queued", "timed-out")).isEqualTo(1);
        assertThat(gauge(registry, "baton.lock.waiters", tags)).isEqualTo(2);

        theirs.release();
        List<Future<LockLease>> inOrder = firstDone(taker, inMemory);
        LockLease first = inOrder.get(0).get();
        assertThat(first.holdToken().isAfter(theirs.holdToken())).isTrue();
        assertThat(gauge(registry, "baton.lock.waiters", tags)).isEqualTo(1);
        assertThat(gauge(registry, "baton.lock.holders", tags)).isEqualTo(1);
        first.release();
        LockLease second = inOrder.get(1).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(second.holdToken().isAfter(first.holdToken())).isTrue();
        second.release();

        assertThat(gauge(registry, "baton.lock.waiters", tags)).isZero();
        assertThat(gauge(registry, "baton.lock.holders", tags)).isZero();
        assertThat(acquired(registry, "mutex", "queued")).as("one acquisition per caller that held").isEqualTo(2);
        assertThat(ended(registry, "mutex", "queued", "failed")).isEqualTo(1);
        assertThat(count(registry, "baton.lock.losses", tags)).isZero();
        assertThat(timed(registry, "baton.lock.held", tags)).isEqualTo(2);
    }

    @Test
    void aLocalWritersExpiryIsOneWriteLossAndTheWritersWaitingInMemoryHoldOnANewNode(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "ledger", "/x/rw-write");
        InterProcessReadWriteLock lock = new InterProcessReadWriteLock(a, "/x/rw-write", SharedTicket.defaults());
        String[] write = {"recipe", "rwlock-write", "name", "ledger"};

        WriteLease holder = lock.writeLock().acquireLease();
        Future<WriteLease> async = lock.writeLock().acquireAsync();
        Future<WriteLease> blocking = threads.submit(() -> lock.writeLock().acquireLease());
        await().atMost(WAIT).untilAsserted(() ->
            assertThat(gauge(registry, "baton.lock.waiters", write)).as("two writers waiting in memory").isEqualTo(2));

        SessionKiller.expire(a, ensemble.connectString(), WAIT);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(count(registry, "baton.lock.losses", write)).as("write losses").isEqualTo(1);
            assertThat(acquired(registry, "rwlock-write", "ledger")).as("write acquisitions").isEqualTo(2);
            assertThat(timed(registry, "baton.lock.held", write)).as("the lost hold ended").isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.holders", write)).as("the lost hold is no longer a holder").isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.waiters", write)).isEqualTo(1);
        });
        assertThatThrownBy(holder::release).isInstanceOf(OwnershipLostException.class);
        List<Future<WriteLease>> inOrder = firstDone(async, blocking);
        WriteLease next = inOrder.get(0).get();
        assertThat(next.holdToken().isAfter(holder.holdToken())).isTrue();
        next.release();
        inOrder.get(1).get(WAIT.toSeconds(), TimeUnit.SECONDS).release();

        assertThat(gauge(registry, "baton.lock.holders", write)).isZero();
        assertThat(gauge(registry, "baton.lock.waiters", write)).isZero();
        assertThat(acquired(registry, "rwlock-write", "ledger")).isEqualTo(3);
        assertThat(ended(registry, "rwlock-write", "ledger", "failed")).isZero();
        assertThat(timed(registry, "baton.lock.held", write)).isEqualTo(3);
        assertThat(count(registry, "baton.lock.losses", write)).isEqualTo(1);
    }

    @Test
    void localReadersExpiryIsOneReadLossEachAndTheLocalWriterQueuedBehindThemHoldsOnANewNode(BatonClient a)
        throws Exception {
        MeterRegistry registry = bound(a, "catalog", "/x/rw-read");
        InterProcessReadWriteLock lock = new InterProcessReadWriteLock(a, "/x/rw-read", SharedTicket.defaults());
        String[] read = {"recipe", "rwlock-read", "name", "catalog"};
        String[] write = {"recipe", "rwlock-write", "name", "catalog"};

        ReadLease one = lock.readLock().acquireLease();
        ReadLease two = lock.readLock().acquireLease();
        Future<WriteLease> writer = lock.writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> lock.participantNodes().size() == 2);
        assertThat(gauge(registry, "baton.lock.holders", read)).isEqualTo(2);
        assertThat(gauge(registry, "baton.lock.waiters", write)).isEqualTo(1);

        SessionKiller.expire(a, ensemble.connectString(), WAIT);

        // both readers lose; the writer's node went too, it takes a new one and holds (the readers' node is gone)
        WriteLease writing = writer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(count(registry, "baton.lock.losses", read)).as("read losses").isEqualTo(2);
            assertThat(gauge(registry, "baton.lock.holders", read)).as("read holders").isZero();
        });
        assertThat(gauge(registry, "baton.lock.waiters", write)).isZero();
        assertThat(gauge(registry, "baton.lock.holders", write)).isEqualTo(1);
        assertThat(count(registry, "baton.lock.losses", write)).as("the writer held nothing to lose").isZero();
        assertThatThrownBy(one::release).isInstanceOf(OwnershipLostException.class);
        assertThatThrownBy(two::release).isInstanceOf(OwnershipLostException.class);
        writing.release();

        ReadLease again = lock.readLock().acquireLease();
        assertThat(acquired(registry, "rwlock-read", "catalog")).as("the read after the expiry is a new acquisition").isEqualTo(3);
        again.release();
        for (String[] side : List.of(read, write)) {
            assertThat(gauge(registry, "baton.lock.holders", side)).isZero();
            assertThat(gauge(registry, "baton.lock.waiters", side)).isZero();
        }
        assertThat(count(registry, "baton.lock.losses", read)).isEqualTo(2);
        assertThat(timed(registry, "baton.lock.held", read)).isEqualTo(3);
        assertThat(acquired(registry, "rwlock-write", "catalog")).isEqualTo(1);
        assertThat(ended(registry, "rwlock-write", "catalog", "failed")).isZero();
    }

    @Test
    void aSemaphoreLeaseHoldersExpiryIsOneLossAndTheCallerWaitingInMemoryHoldsANewLease(BatonClient a) throws Exception {
        MeterRegistry registry = bound(a, "slots", "/x/sem");
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(a, "/x/sem", 1, SharedTicket.defaults());
        String[] tags = {"recipe", "semaphore", "name", "slots"};

        Lease holder = semaphore.acquire();
        CompletableFuture<Lease> waiting = semaphore.acquireAsync();
        await().atMost(WAIT).untilAsserted(() ->
            assertThat(gauge(registry, "baton.lock.waiters", tags)).as("a caller waiting in memory").isEqualTo(1));

        SessionKiller.expire(a, ensemble.connectString(), WAIT);

        Lease next = waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(count(registry, "baton.lock.losses", tags)).as("losses").isEqualTo(1);
            assertThat(timed(registry, "baton.lock.held", tags)).as("the lost lease ended").isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.holders", tags)).as("the lost lease is no longer a holder").isEqualTo(1);
            assertThat(gauge(registry, "baton.lock.waiters", tags)).isZero();
        });
        assertThat(holder.isValid()).isFalse();
        assertThat(next.isValid()).isTrue();
        semaphore.returnLease(next);
        assertThatThrownBy(() -> semaphore.returnLease(holder)).isInstanceOf(LockOwnershipLostException.class);

        assertThat(gauge(registry, "baton.lock.holders", tags)).isZero();
        assertThat(gauge(registry, "baton.lock.waiters", tags)).isZero();
        assertThat(acquired(registry, "semaphore", "slots")).isEqualTo(2);
        assertThat(timed(registry, "baton.lock.held", tags)).isEqualTo(2);
        assertThat(count(registry, "baton.lock.losses", tags)).isEqualTo(1);
    }
}

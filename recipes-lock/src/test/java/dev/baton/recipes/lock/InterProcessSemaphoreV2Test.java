package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.InvalidPathException;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@EnsembleTest
class InterProcessSemaphoreV2Test {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void neverMoreThanMaxLeasesAreHeldAtOnce(BatonClient a, BatonClient b, BatonClient c) throws Exception {
        int maxLeases = 2;
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (BatonClient client : List.of(a, b, c)) {
            InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, "/semaphore/bound", maxLeases);
            for (int t = 0; t < 2; t++) {
                workers.add(CompletableFuture.runAsync(() -> {
                    for (int round = 0; round < 5; round++) {
                        try (Lease lease = semaphore.acquire(WAIT)) {
                            assertThat(lease).isNotNull();
                            most.accumulateAndGet(holding.incrementAndGet(), Math::max);
                            Thread.yield();
                            holding.decrementAndGet();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }, runnable -> new Thread(runnable).start()));
            }
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        assertThat(most.get()).as("leases held at once").isBetween(1, maxLeases);
        InterProcessSemaphoreV2 observer = new InterProcessSemaphoreV2(a, "/semaphore/bound", maxLeases);
        await().atMost(WAIT).until(() -> observer.participantNodes().isEmpty());
    }

    @Test
    void aFullSemaphoreMakesTheNextWaitUntilALeaseIsReturned(BatonClient a, BatonClient b) throws Exception {
        InterProcessSemaphoreV2 full = new InterProcessSemaphoreV2(a, "/semaphore/full", 2);
        InterProcessSemaphoreV2 other = new InterProcessSemaphoreV2(b, "/semaphore/full", 2);
        Collection<Lease> two = full.acquire(2);

        assertThat(other.acquire(Duration.ofMillis(200))).isNull();
        assertThat(other.acquire(Duration.ZERO)).isNull();
        CompletableFuture<Lease> waiting = other.acquireAsync(WAIT);
        await().atMost(WAIT).until(() -> full.participantNodes().size() == 3);
        full.returnLease(two.iterator().next());

        Lease third = waiting.get(20, TimeUnit.SECONDS);
        assertThat(third.isValid()).isTrue();
        assertThat(full.participantNodes()).hasSize(2).contains(third.nodeName());
        full.returnAll(List.of(two.toArray(Lease[]::new)[1]));
        third.close();
        await().atMost(WAIT).until(() -> full.participantNodes().isEmpty());
    }

    @Test
    void severalLeasesComeAllOrNoneWithinOneTimeout(BatonClient a, BatonClient b) throws Exception {
        InterProcessSemaphoreV2 mine = new InterProcessSemaphoreV2(a, "/semaphore/several", 3);
        Lease theirs = new InterProcessSemaphoreV2(b, "/semaphore/several", 3).acquire();

        assertThat(mine.acquire(3, Duration.ofMillis(300))).as("only two of three are free").isNull();
        await().atMost(WAIT).until(() -> mine.participantNodes().equals(List.of(theirs.nodeName())));

        Collection<Lease> two = mine.acquire(2, WAIT);
        assertThat(two).hasSize(2).allMatch(Lease::isValid);
        assertThat(two.stream().map(Lease::fencingToken).distinct()).hasSize(2);
        mine.returnAll(two);
        theirs.close();
        await().atMost(WAIT).until(() -> mine.participantNodes().isEmpty());
    }

    @Test
    void nodesFollowCuratorsLayoutAndTheInternalMutexIsGivenBack(BatonClient a) throws Exception {
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(a, "/semaphore/layout", 1);
        Lease lease = semaphore.acquire();

        assertThat(lease.nodePaths()).singleElement().asString().matches("/semaphore/layout/leases/_c_[0-9a-f-]{36}-lease-\\d{10}");
        await().atMost(WAIT).until(() -> Nodes.children(a, "/semaphore/layout/locks").isEmpty());
        lease.close();
        lease.close(); // closing twice does nothing
        assertThatThrownBy(lease::release).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void cancellingAWaitingAcquisitionLeavesNoNodeInLeasesOrLocks(BatonClient a, BatonClient b) throws Exception {
        InterProcessSemaphoreV2 holder = new InterProcessSemaphoreV2(a, "/semaphore/cancel", 1);
        Lease held = holder.acquire();
        CompletableFuture<Lease> counting = new InterProcessSemaphoreV2(b, "/semaphore/cancel", 1).acquireAsync();
        CompletableFuture<Lease> queued = new InterProcessSemaphoreV2(b, "/semaphore/cancel", 1).acquireAsync();
        await().atMost(WAIT).until(() -> holder.participantNodes().size() == 2
            && Nodes.children(a, "/semaphore/cancel/locks").size() == 2);

        counting.cancel(true);
        queued.cancel(true);

        await().atMost(WAIT).until(() -> holder.participantNodes().equals(List.of(held.nodeName()))
            && Nodes.children(a, "/semaphore/cancel/locks").isEmpty());
        held.close();
    }

    @Test
    void interruptedAcquireLeavesNoNode(BatonClient a, BatonClient b) throws Exception {
        InterProcessSemaphoreV2 holder = new InterProcessSemaphoreV2(a, "/semaphore/interrupt", 1);
        Lease held = holder.acquire();
        InterProcessSemaphoreV2 other = new InterProcessSemaphoreV2(b, "/semaphore/interrupt", 1);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                other.acquire();
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        waiter.start();
        await().atMost(WAIT).until(() -> holder.participantNodes().size() == 2);

        waiter.interrupt();

        assertThat(outcome.get(20, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        await().atMost(WAIT).until(() -> holder.participantNodes().equals(List.of(held.nodeName())));
        held.close();
    }

    @Test
    void badInputFailsAtOnce(BatonClient a) {
        assertThatThrownBy(() -> new InterProcessSemaphoreV2(a, "/semaphore/bad", 0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("maxLeases must be at least 1, was 0");
        assertThatThrownBy(() -> new InterProcessSemaphoreV2(a, "/semaphore/bad", -3)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("was -3");
        assertThatThrownBy(() -> new InterProcessSemaphoreV2(a, "relative", 1)).isInstanceOf(InvalidPathException.class)
            .hasMessageContaining("relative");
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(a, "/semaphore/bad", 2);
        assertThatThrownBy(() -> semaphore.acquire(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("qty must be between 1 and maxLeases (2), was 0");
        assertThatThrownBy(() -> semaphore.acquire(3, WAIT)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("was 3");
        assertThatThrownBy(() -> semaphore.acquire(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new InterProcessSemaphoreMutex(a, "")).isInstanceOf(InvalidPathException.class);
    }

    @Test
    void aClosedClientFailsEveryFormOfAcquisitionAtOnceInsteadOfHanging(@ConnectString String connect) throws Exception {
        BatonClient closed = TestClients.started(connect, Duration.ofSeconds(10));
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(closed, "/sem/closed", 2);
        InterProcessMutex mutex = new InterProcessMutex(closed, "/mutex/closed");
        closed.close();
        assertThatThrownBy(() -> semaphore.acquire(Duration.ofSeconds(5))).isInstanceOf(ClientClosedException.class);
        assertThatThrownBy(() -> semaphore.acquireAsync(Duration.ofSeconds(5)).get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .hasCauseInstanceOf(ClientClosedException.class);
        assertThatThrownBy(() -> mutex.acquireAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .hasCauseInstanceOf(ClientClosedException.class);
        assertThatThrownBy(() -> mutex.acquireLease(Duration.ofSeconds(5))).isInstanceOf(ClientClosedException.class);
    }

    @Test
    void theAsynchronousFormsRefuseANegativeTimeoutAndWaitAsLongAsItTakesWithoutOne(BatonClient a, BatonClient b)
            throws Exception {
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(a, "/semaphore/async-forms", 2);
        // as the blocking forms and every lock's acquireAsync: a negative timeout is a bug, not "look once"
        assertThatThrownBy(() -> semaphore.acquireAsync(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> semaphore.acquireAsync(2, Duration.ofMillis(-5))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("PT-0.005S");
        assertThatThrownBy(() -> semaphore.acquireAsync(3)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("was 3");
        // and no null for "no limit" (it meant that once): acquireAsync() says it without a sentinel
        assertThatThrownBy(() -> semaphore.acquireAsync((Duration) null)).isInstanceOf(NullPointerException.class)
            .hasMessage("timeout");
        assertThatThrownBy(() -> semaphore.acquireAsync(1, null)).isInstanceOf(NullPointerException.class)
            .hasMessage("timeout");
        assertThat(semaphore.participantNodes()).as("a refused call takes nothing").isEmpty();

        List<Lease> both = semaphore.acquireAsync(2).get(20, TimeUnit.SECONDS);
        CompletableFuture<Lease> next = new InterProcessSemaphoreV2(b, "/semaphore/async-forms", 2).acquireAsync();
        await().atMost(WAIT).until(() -> Nodes.children(a, "/semaphore/async-forms/locks").size() == 1);
        assertThat(next).as("no limit: it waits for a lease to come back").isNotDone();
        semaphore.returnLease(both.get(0));
        Lease third = next.get(20, TimeUnit.SECONDS);
        semaphore.returnAll(List.of(both.get(1), third));
        await().atMost(WAIT).until(() -> semaphore.participantNodes().isEmpty());
    }

    @Test
    void leasesHeldWhenTheirClientClosesAreToldAndTheirPlacesGoToTheJobsWaiting(BatonClient closing, BatonClient other)
            throws Exception {
        String path = "/semaphore/closed-under-leases";
        InterProcessSemaphoreV2 jobs = new InterProcessSemaphoreV2(closing, path, 2);
        Collection<Lease> running = jobs.acquire(2);
        List<String> told = new CopyOnWriteArrayList<>();
        running.forEach(lease -> lease.onLost(() -> told.add(lease.nodeName())));
        CompletableFuture<List<Lease>> waiting = new InterProcessSemaphoreV2(other, path, 2).acquireAsync(2, WAIT);
        await().atMost(WAIT).until(() -> Nodes.children(other, path + "/locks").size() == 1);

        closing.close(); // as a process that shuts down (or crashes) with jobs running: its session ends

        List<Lease> taken = waiting.get(20, TimeUnit.SECONDS);
        assertThat(taken).as("both leases went with the closed client's session").hasSize(2);
        await("each lease is told once").atMost(WAIT).until(() -> told.size() == 2);
        assertThat(running).noneMatch(Lease::isValid);
        assertThatThrownBy(() -> jobs.returnAll(running)).isInstanceOf(LockOwnershipLostException.class);
        assertThat(told).as("told once each").hasSize(2);
        new InterProcessSemaphoreV2(other, path, 2).returnAll(taken);
    }

    @Test
    void aSemaphoreMutexReleasedFromAnotherThreadIsReleasedThroughItsLease(BatonClient a, BatonClient b) throws Exception {
        // Curator's InterProcessSemaphoreMutex.release() works from any thread; Baton's release() is thread-bound
        InterProcessSemaphoreMutex mutex = new InterProcessSemaphoreMutex(a, "/semaphore/mutex-across-threads");
        mutex.acquire();
        CompletableFuture<Throwable> fromAnotherThread = CompletableFuture.supplyAsync(() -> {
            try {
                mutex.release();
                return null;
            } catch (IllegalMonitorStateException e) {
                return e;
            }
        });
        assertThat(fromAnotherThread.get(20, TimeUnit.SECONDS)).as("the error tells the migrating user what to do instead")
            .isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("does not hold InterProcessSemaphoreMutex")
            .hasMessageContaining("acquireLease()").hasMessageContaining("any thread may release");
        mutex.release();

        LockLease lease = mutex.acquireLease();
        CompletableFuture<LockLease> next = new InterProcessSemaphoreMutex(b, "/semaphore/mutex-across-threads").acquireAsync();
        CompletableFuture.runAsync(lease::release).get(20, TimeUnit.SECONDS);
        next.get(20, TimeUnit.SECONDS).release();
    }

    @Test
    void curatorsNamesAnswerLikeBatonsOwn(BatonClient a) throws Exception {
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(a, "/semaphore/curator-names", 2);
        try (Lease lease = semaphore.acquire()) {
            assertThat(lease.getNodeName()).isEqualTo(lease.nodeName()).contains("-lease-");
            assertThat(semaphore.getParticipantNodes()).isEqualTo(semaphore.participantNodes()).containsExactly(lease.nodeName());
        }
    }
}

package dev.baton.recipes.lock;

import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.contention.FencingToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The semaphore in the shared-ticket mode: a process's callers share its lease nodes, at most maxLeases at once. */
@EnsembleTest
class SharedTicketSemaphoreTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void aReturnedLeasePassesToTheNextLocalCallerInArrivalOrder(BatonClient client) throws Exception {
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, "/shared-sem/order", 2, SharedTicket.defaults());
        Lease first = semaphore.acquire();
        Lease second = semaphore.acquire();
        CompletableFuture<Lease> third = semaphore.acquireAsync();
        CompletableFuture<Lease> fourth = semaphore.acquireAsync();

        assertThat(semaphore.participantNodes()).as("one node per lease in use, none for the waiters").hasSize(2);
        assertThat(third).isNotDone();
        second.close();
        Lease thirdLease = third.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(thirdLease.nodeName()).isEqualTo(second.nodeName());
        assertThat(thirdLease.holdToken()).isEqualTo(new FencingToken(second.fencingToken(), 1));
        assertThat(fourth).as("the fourth waits for the next returned lease").isNotDone();
        first.close();
        Lease fourthLease = fourth.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(fourthLease.holdToken()).isEqualTo(new FencingToken(first.fencingToken(), 1));

        thirdLease.close();
        fourthLease.close();
        await().atMost(WAIT).until(() -> semaphore.participantNodes().isEmpty());
    }

    @Test
    void manyThreadsNeverHoldMoreThanMaxLeasesAndEveryHoldOnANodeHasItsOwnNumber(BatonClient client) throws Exception {
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, "/shared-sem/many", 2, SharedTicket.defaults());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ConcurrentLinkedQueue<FencingToken> tokens = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int t = 0; t < 5; t++) {
            workers.add(CompletableFuture.runAsync(() -> {
                try {
                    for (int round = 0; round < 15; round++) {
                        try (Lease lease = semaphore.acquire(WAIT)) {
                            assertThat(lease).isNotNull();
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            tokens.add(lease.holdToken());
                            Thread.yield();
                            inside.decrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, command -> new Thread(command).start()));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        assertThat(most.get()).as("holders at once").isBetween(1, 2);
        assertThat(Set.copyOf(tokens)).as("no two holds share a token").hasSize(tokens.size());
        Map<Long, Long> holdsPerNode = tokens.stream().collect(Collectors.groupingBy(FencingToken::zxid, Collectors.counting()));
        assertThat(holdsPerNode.values()).as("leases passed on in memory").anyMatch(count -> count > 1);
        await().atMost(WAIT).until(() -> semaphore.participantNodes().isEmpty());
    }
}

package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Ticket;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CountingClient;
import dev.baton.test.CountingClient.Read;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The contention engine against a real server: order, hand-off, cancellation safety, recovery. */
@EnsembleTest(clientSessionTimeoutMillis = 5000)
class ContentionEngineTest {
    private static final byte[] NONE = new byte[0];
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    private static String dir(TestInfo info) {
        return "/engine/" + info.getTestMethod().orElseThrow().getName();
    }

    private static Contention mutex(BatonClient client, String dir) {
        return Contention.of(client, dir, "lock-", ContentionRule.mutex());
    }

    @Test
    void waitersHoldInTicketOrderWithIncreasingFencingTokens(BatonClient a, BatonClient b, BatonClient c, TestInfo info)
        throws Exception {
        String dir = dir(info);
        Ticket first = mutex(a, dir).acquireBlocking(NONE, WAIT);
        List<CompletableFuture<Ticket>> waiting = new ArrayList<>();
        List<Contention> engines = List.of(mutex(b, dir), mutex(c, dir), mutex(a, dir));
        for (Contention engine : engines) {
            waiting.add(engine.acquire(NONE, WAIT));
            int expected = waiting.size() + 1;
            await().atMost(WAIT).until(() -> mutex(a, dir).contenders().get().size() == expected);
        }
        Ticket previous = first;
        mutex(a, dir).release(first).get();
        for (int i = 0; i < waiting.size(); i++) {
            Ticket held = waiting.get(i).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            for (int j = i + 1; j < waiting.size(); j++) {
                assertThat(waiting.get(j)).as("waiter %d must not hold before %d releases", j, i).isNotDone();
            }
            assertThat(held.sequence()).isGreaterThan(previous.sequence());
            assertThat(held.fencingToken()).isGreaterThan(previous.fencingToken());
            engines.get(i).release(held).get();
            previous = held;
        }
    }

    @Test
    void theNextInLineTakesTheHandOffWithoutListingAgain(BatonClient a, BatonClient b, TestInfo info) throws Exception {
        String dir = dir(info);
        Ticket held = mutex(a, dir).acquireBlocking(NONE, WAIT);
        CountingClient counting = CountingClient.wrap(b);
        CompletableFuture<Ticket> next = mutex(counting.client(), dir).acquire(NONE, WAIT);
        // waiting: it watches its predecessor and (to trust a hand-off without listing) its own node
        // (an exists watch on its own node, a getData watch on its predecessor)
        await().atMost(WAIT).until(() -> counting.reads(Read.CHECK_EXISTS) == 1 && counting.reads(Read.GET_DATA) == 1);
        long listings = counting.reads(Read.GET_CHILDREN);
        mutex(a, dir).release(held).get();
        assertThat(next.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isNotNull();
        assertThat(counting.reads(Read.GET_CHILDREN)).as("no second listing on hand-off").isEqualTo(listings).isEqualTo(1);
    }

    @Test
    void aTimedOutOrCancelledOrInterruptedAttemptLeavesNoNode(BatonClient a, BatonClient b, TestInfo info) throws Exception {
        String dir = dir(info);
        Ticket held = mutex(a, dir).acquireBlocking(NONE, WAIT);

        assertThat(mutex(b, dir).acquireBlocking(NONE, Duration.ofMillis(300))).as("timed out").isNull();
        await().atMost(WAIT).until(() -> b.getChildren().forPath(dir).size() == 1);

        CompletableFuture<Ticket> cancelled = mutex(b, dir).acquire(NONE, null);
        await().atMost(WAIT).until(() -> b.getChildren().forPath(dir).size() == 2);
        cancelled.cancel(true);
        await().atMost(WAIT).until(() -> b.getChildren().forPath(dir).size() == 1);

        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                mutex(b, dir).acquireBlocking(NONE, null);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        waiter.start();
        await().atMost(WAIT).until(() -> b.getChildren().forPath(dir).size() == 2);
        waiter.interrupt();
        waiter.join(WAIT.toMillis());
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        await().atMost(WAIT).until(() -> b.getChildren().forPath(dir).size() == 1);
        assertThat(b.getChildren().forPath(dir)).containsExactly(held.name());
    }

    @Test
    void aWaiterWhoseNodeIsDeletedTakesANewTicket(BatonClient a, BatonClient b, BatonClient operator, TestInfo info)
        throws Exception {
        String dir = dir(info);
        Ticket held = mutex(a, dir).acquireBlocking(NONE, WAIT);
        CompletableFuture<Ticket> waiting = mutex(b, dir).acquire(NONE, WAIT);
        await().atMost(WAIT).until(() -> operator.getChildren().forPath(dir).size() == 2);
        String waiterNode = operator.getChildren().forPath(dir).stream().filter(n -> !n.equals(held.name())).findFirst().orElseThrow();
        operator.delete().forPath(dir + "/" + waiterNode);
        // the waiter notices at the next look at the line and queues again
        mutex(a, dir).release(held).get();
        Ticket second = waiting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(second.name()).isNotEqualTo(waiterNode);
        assertThat(operator.getChildren().forPath(dir)).containsExactly(second.name());
    }

    @Test
    void aWaiterWhoseSessionExpiresQueuesAgainInItsNewSession(BatonClient a, TestInfo info) throws Exception {
        String dir = dir(info);
        try (BatonClient b = TestClients.started(ensemble.connectString(), Duration.ofSeconds(5))) {
            Ticket held = mutex(a, dir).acquireBlocking(NONE, WAIT);
            CompletableFuture<Ticket> waiting = mutex(b, dir).acquire(NONE, WAIT);
            await().atMost(WAIT).until(() -> a.getChildren().forPath(dir).size() == 2);
            long oldSession = b.sessionId();
            SessionKiller.expire(b, ensemble.connectString(), WAIT);
            await().atMost(WAIT).until(() -> b.sessionId() != oldSession && b.connectionState().isConnected());
            await().atMost(WAIT).until(() -> a.getChildren().forPath(dir).size() == 2);
            mutex(a, dir).release(held).get();
            Ticket second = waiting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(second.sessionId()).isEqualTo(b.sessionId()).isNotEqualTo(oldSession);
        }
    }
}

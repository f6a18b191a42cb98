package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@code client.close()} now closes the latches and selectors built on the client, on the closing
 * thread, and waits for them. A service closes its client from wherever it learns it must stop: a
 * connection listener (the event executor), a latch listener or an async callback (the async
 * executor), {@code takeLeadership} itself. From each of these the close must still finish, and
 * the recipes must end up closed.
 */
@EnsembleTest
class ClientClosedFromCallbacksTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** Leads with a latch and a selector on {@code client}; the selector's work runs until interrupted. */
    private record Leaders(LeaderLatch latch, LeaderSelector selector) { }

    private static Leaders lead(BatonClient client, String path) throws Exception {
        LeaderLatch latch = new LeaderLatch(client, path + "/latch", "l");
        latch.start();
        assertThat(latch.await(WAIT)).as("the latch leads").isTrue();
        CountDownLatch leads = new CountDownLatch(1);
        LeaderSelector selector = new LeaderSelector(client, path + "/selector", "s", c -> {
            leads.countDown();
            new CountDownLatch(1).await(); // until interrupted
        });
        selector.start();
        assertThat(leads.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the selector leads").isTrue();
        return new Leaders(latch, selector);
    }

    private static void assertClosed(Leaders leaders) {
        assertThat(leaders.latch().state()).as("the latch").isEqualTo(LeaderLatch.State.CLOSED);
        assertThat(leaders.selector().state()).as("the selector").isEqualTo(LeaderSelector.State.CLOSED);
    }

    /** Fails, saying from where, unless the {@code client.close()} that completes {@code closed} returns within WAIT. */
    private static void assertCloseFinishes(CompletableFuture<Void> closed, String from) throws Exception {
        try {
            closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("client.close() called from " + from + " did not return within " + WAIT, e);
        }
    }

    /** Leads on a fresh client, closes the client on one of its own executors, and checks both recipes ended closed. */
    private static void closeOnOwnExecutorFinishes(String connect, String path, Function<BatonClient, Executor> executor,
        String name) throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        Leaders leaders = lead(client, path);
        assertCloseFinishes(CompletableFuture.runAsync(client::close, executor.apply(client)), name);
        assertClosed(leaders);
    }

    @Test
    void closingTheClientOnItsEventExecutorFinishes(@ConnectString String connect) throws Exception {
        closeOnOwnExecutorFinishes(connect, "/close-from/event", BatonClient::eventExecutor, "its event executor");
    }

    @Test
    void closingTheClientOnItsAsyncExecutorFinishes(@ConnectString String connect) throws Exception {
        closeOnOwnExecutorFinishes(connect, "/close-from/async", BatonClient::asyncExecutor, "its async executor");
    }

    @Test
    void closingTheClientFromAConnectionListenerFinishes(@ConnectString String connect) throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        Leaders leaders = lead(client, "/close-from/listener");
        CompletableFuture<Void> closed = new CompletableFuture<>();
        ConnectionStateListener closer = (c, state) -> {
            if (!state.isConnected() && !closed.isDone()) {
                c.close();
                closed.complete(null);
            }
        };
        client.addConnectionStateListener(closer);
        client.zookeeper().getTestable().injectSessionExpiration();
        assertCloseFinishes(closed, "a connection listener");
        assertClosed(leaders);
    }

    @Test
    void closingTheClientFromTakeLeadershipFinishes(@ConnectString String connect) throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderLatch latch = new LeaderLatch(client, "/close-from/work/latch", "l");
        latch.start();
        assertThat(latch.await(WAIT)).as("the latch leads").isTrue();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        LeaderSelector selector = new LeaderSelector(client, "/close-from/work/selector", "s", c -> {
            c.close();
            closed.complete(null);
        });
        selector.start();
        assertCloseFinishes(closed, "takeLeadership");
        assertClosed(new Leaders(latch, selector));
    }

    @Test
    void closingTheClientFromALatchListenerFinishes(@ConnectString String connect) throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        Leaders leaders = lead(client, "/close-from/latch-listener");
        CompletableFuture<Void> closed = new CompletableFuture<>();
        LeaderLatch second = new LeaderLatch(client, "/close-from/latch-listener/second", "x");
        second.addListener(LeaderLatchListener.of(token -> {
            client.close();
            closed.complete(null);
        }, () -> { }));
        second.start();
        assertCloseFinishes(closed, "a latch listener");
        assertClosed(leaders);
        assertThat(second.state()).as("the latch whose listener closed the client").isEqualTo(LeaderLatch.State.CLOSED);
    }
}

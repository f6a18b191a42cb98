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
import java.util.concurrent.TimeUnit;
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

    @Test
    void closingTheClientOnItsEventExecutorFinishes(@ConnectString String connect) throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        Leaders leaders = lead(client, "/close-from/event");
        CompletableFuture<Void> closed = CompletableFuture.runAsync(client::close, client.eventExecutor());
        closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertClosed(leaders);
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
        closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertClosed(leaders);
    }

    @Test
    void closingTheClientOnItsAsyncExecutorFinishes(@ConnectString String connect) throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        Leaders leaders = lead(client, "/close-from/async");
        CompletableFuture<Void> closed = CompletableFuture.runAsync(client::close, client.asyncExecutor());
        closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertClosed(leaders);
    }

    @Test
    void closingTheClientFromTakeLeadershipFinishes(@ConnectString String connect) throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderLatch latch = new LeaderLatch(client, "/close-from/work/latch", "l");
        latch.start();
        assertThat(latch.await(WAIT)).isTrue();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        LeaderSelector selector = new LeaderSelector(client, "/close-from/work/selector", "s", c -> {
            c.close();
            closed.complete(null);
        });
        selector.start();
        closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(latch.state()).isEqualTo(LeaderLatch.State.CLOSED);
        assertThat(selector.state()).isEqualTo(LeaderSelector.State.CLOSED);
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
        closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertClosed(leaders);
        assertThat(second.state()).isEqualTo(LeaderLatch.State.CLOSED);
    }
}

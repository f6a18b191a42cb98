package dev.baton.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.awaitility.Awaitility;

/**
 * Connection-fault scenarios that every lock recipe on the contention engine must come through
 * the same way, shared by the lock modules' fault tests. Each takes a grant that keeps the lock
 * busy, the lock's line as its holder sees it, and a way to queue up behind the holder through a
 * client that reaches server 1 of {@code ensemble} through a {@link ChaosProxy}:
 *
 * <pre>{@code
 * InterProcessMutex holder = new InterProcessMutex(holderClient, "/fault/lost-reply");
 * LockFaults.lostCreateReplyLeavesNoDuplicateNode(ensemble, holder.acquireLease(), holder::participantNodes,
 *     client -> new InterProcessMutex(client, "/fault/lost-reply").acquireAsync());
 * }</pre>
 */
public final class LockFaults {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private LockFaults() {
    }

    /** Something held through a client, and its release (run on the thread that took it). */
    @FunctionalInterface
    public interface Held {
        /**
         * Releases the hold.
         *
         * @throws Exception whatever the recipe's release throws (the scenario judges it)
         */
        void release() throws Exception;
    }

    /** Takes a hold through {@code client} (on the thread that will release it). */
    @FunctionalInterface
    public interface Taker {
        /**
         * Takes the hold.
         *
         * @param client the client to take it through
         * @return the hold, to release later on the same thread
         * @throws Exception whatever the recipe's acquisition throws
         */
        Held take(BatonClient client) throws Exception;
    }

    /** The paths of a lock's nodes, holding or waiting, in line order (a recipe's {@code participantNodes}). */
    @FunctionalInterface
    public interface Line {
        /**
         * {@return the paths of the lock's nodes, holding or waiting, in line order}
         *
         * @throws InterruptedException if the calling thread is interrupted while it waits for the listing
         */
        List<String> nodes() throws InterruptedException;
    }

    /**
     * While {@code held} keeps the lock, {@code acquisition} creates its node behind a slow proxy
     * and the reply to that create is lost with the connection. Once {@code held} is released,
     * the acquisition must be granted on the node it had made (the retried create found it: no
     * duplicate), and its release must leave the line empty.
     *
     * @param ensemble the test's ensemble
     * @param held a hold on the lock, taken by the test through another client
     * @param line lists the lock's nodes
     * @param acquisition starts an acquisition of the lock through the client it is given
     * @throws InterruptedException if the test thread is interrupted
     * @throws ExecutionException if the acquisition failed
     * @throws TimeoutException if the acquisition did not complete in time
     */
    public static void lostCreateReplyLeavesNoDuplicateNode(EmbeddedEnsemble ensemble, Grant held, Line line,
                                                            Function<BatonClient, CompletableFuture<? extends Grant>> acquisition)
        throws InterruptedException, ExecutionException, TimeoutException {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(proxy.connectString(), Duration.ofSeconds(10))) {
            proxy.delay(Duration.ofSeconds(1));
            CompletableFuture<? extends Grant> waiting = acquisition.apply(client);
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> line.nodes().size() == 2);
            String created = line.nodes().get(1);

            proxy.cut(); // the create's reply is still in the proxy: it is lost
            proxy.delay(Duration.ZERO);
            proxy.heal();
            held.release();

            Grant lease = waiting.get(20, TimeUnit.SECONDS);
            assertEquals(List.of(created), lease.nodePaths(), "the retried create found the node it had made");
            assertEquals(List.of(created), line.nodes());
            lease.release();
            Awaitility.await().atMost(WAIT).until(() -> line.nodes().isEmpty());
        }
    }

    /**
     * A holder is frozen — its link to the servers paused, so its client hears nothing — while
     * the servers end its session (and with it its node). It wakes and releases before its
     * client notices anything: that release cannot show that the hold lasted until it, and must
     * say so with an {@link OwnershipLostException} (a recipe's subclass of it) instead of
     * returning as if all were well. {@code taker} takes the hold and the release runs on the
     * same thread, under {@code policy}.
     *
     * @param ensemble the test's ensemble
     * @param policy the holder's client's error policy
     * @param taker takes the hold through the client it is given
     * @throws InterruptedException if the test thread is interrupted
     * @throws ExecutionException if taking or releasing failed otherwise than expected
     * @throws TimeoutException if a step did not complete in time
     */
    public static void releaseUnheardAfterTheSessionEndedIsLoud(EmbeddedEnsemble ensemble, ErrorPolicy policy, Taker taker)
        throws InterruptedException, ExecutionException, TimeoutException {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(10)).errorPolicy(policy))) {
            CompletableFuture<Held> taken = new CompletableFuture<>();
            CountDownLatch wake = new CountDownLatch(1);
            AtomicBoolean releasing = new AtomicBoolean();
            CompletableFuture<Void> released = new CompletableFuture<>();
            Thread holder = new Thread(() -> {
                try {
                    taken.complete(taker.take(client));
                    wake.await();
                    releasing.set(true);
                    taken.join().release();
                    released.complete(null);
                } catch (Throwable e) {
                    taken.completeExceptionally(e);
                    released.completeExceptionally(e);
                }
            }, "frozen-holder");
            holder.start();
            taken.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            proxy.pause();
            SessionKiller.expire(client, ensemble.connectString(), WAIT);
            assertTrue(client.connectionState().isConnected(), "the frozen client has heard nothing yet");
            wake.countDown();
            // the release has judged the hold (still valid, as far as the client knows) and sent its delete
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(5))
                .until(() -> releasing.get() && holder.getState() == Thread.State.WAITING);
            proxy.resume();

            ExecutionException thrown = assertThrows(ExecutionException.class,
                () -> released.get(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the release returned as if the hold had lasted");
            assertInstanceOf(OwnershipLostException.class, thrown.getCause());
            holder.join(WAIT.toMillis());
        }
    }

    /**
     * While {@code held} keeps the lock, a timed {@code acquisition} (given its timeout) queues
     * up behind a slow proxy, and the connection is cut. It must time out with null while cut
     * off, and once the connection is back its node must be gone, leaving only {@code held}'s.
     *
     * @param ensemble the test's ensemble
     * @param held a hold on the lock, taken by the test through another client
     * @param line lists the lock's nodes
     * @param acquisition starts a timed acquisition of the lock through the client it is given
     * @throws InterruptedException if the test thread is interrupted
     * @throws ExecutionException if the acquisition failed
     * @throws TimeoutException if the acquisition did not complete in time
     */
    public static void acquisitionTimingOutWhileDisconnectedLeavesNoOrphan(
        EmbeddedEnsemble ensemble, Grant held, Line line,
        BiFunction<BatonClient, Duration, CompletableFuture<? extends Grant>> acquisition)
        throws InterruptedException, ExecutionException, TimeoutException {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(proxy.connectString(), Duration.ofSeconds(10))) {
            proxy.delay(Duration.ofSeconds(1));
            CompletableFuture<? extends Grant> waiting = acquisition.apply(client, Duration.ofMillis(1500));
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> line.nodes().size() == 2);
            proxy.cut();

            assertNull(waiting.get(20, TimeUnit.SECONDS), "timed out while disconnected");
            proxy.delay(Duration.ZERO);
            proxy.heal();

            Awaitility.await().atMost(WAIT).until(() -> line.nodes().equals(held.nodePaths()));
            held.release();
        }
    }
}

package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/** The state sequence each fault produces, tagged with sessions, in order, off ZooKeeper's thread. */
@EnsembleTest
class ConnectionStatesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    /** Records every change with the thread it was delivered on. */
    static final class Recorder implements ConnectionStateListener {
        final BlockingQueue<ConnectionStateChange> changes = new LinkedBlockingQueue<>();
        final BlockingQueue<String> threads = new LinkedBlockingQueue<>();

        @Override
        public void stateChanged(BatonClient client, ConnectionState newState) {
        }

        @Override
        public void stateChanged(BatonClient client, ConnectionStateChange change) {
            threads.add(Thread.currentThread().getName());
            changes.add(change);
        }

        ConnectionStateChange next() throws InterruptedException {
            ConnectionStateChange change = changes.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(change).as("a state change within %s", WAIT).isNotNull();
            return change;
        }
    }

    private BatonClient viaProxy(ChaosProxy proxy, Duration session, Recorder recorder) {
        BatonClient.Builder builder = BatonClient.builder().connectString(proxy.connectString())
            .sessionTimeout(session).connectionTimeout(Duration.ofSeconds(2));
        BatonClient client = builder.build();
        client.addConnectionStateListener(recorder);
        client.start();
        return client;
    }

    /**
     * A cut while a watch removal is in flight: the removal fails with connection loss, and
     * ZooKeeper hands the removed watcher an event whose state is Disconnected. Its event thread
     * de-duplicates connection events against the state of the last event of any kind, so the
     * Disconnected of the cut itself is never delivered, and the SyncConnected of the heal looks
     * like no change. Listeners must still hear SUSPENDED then RECONNECTED (both once the
     * connection is back: nothing announced the loss before): a cache that hears
     * neither never loads what changed during the cut (TransactionChaosTest: a participant's
     * view missed every transaction created while its client's link was cut, as its coordinator
     * was closing one of its per-transaction caches).
     */
    @Test
    void aCutWhileAWatchRemovalIsInFlightStillGivesSuspendedThenReconnected(BatonClient writer) throws Exception {
        writer.create().creatingParentsIfNeeded().forPath("/states/removal-in-flight");
        Recorder recorder = new Recorder();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, Duration.ofSeconds(20), recorder)) {
            assertThat(recorder.next().state()).isEqualTo(ConnectionState.CONNECTED);
            Watcher watcher = event -> {
            };
            client.watches().add("/states/removal-in-flight", AddWatchMode.PERSISTENT_RECURSIVE, watcher);

            proxy.pauseReplies(); // the server's answer to the removal is held...
            client.watches().removeAsync("/states/removal-in-flight", watcher, Watcher.WatcherType.Any);
            proxy.cut(); // ...and lost with the connection
            proxy.heal();
            // the loss is heard when the connection is back, since ZooKeeper never announced it
            assertThat(recorder.next().state()).as("the loss").isEqualTo(ConnectionState.SUSPENDED);
            ConnectionStateChange reconnected = recorder.next();
            assertThat(reconnected.state()).as("after the heal").isEqualTo(ConnectionState.RECONNECTED);
            assertThat(reconnected.sessionId()).isEqualTo(client.sessionId());
        }
    }

    @Test
    void cutAndHealGiveSuspendedThenReconnectedOnTheSameSession() throws Exception {
        Recorder recorder = new Recorder();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, Duration.ofSeconds(20), recorder)) {
            ConnectionStateChange connected = recorder.next();
            assertThat(connected.state()).isEqualTo(ConnectionState.CONNECTED);
            assertThat(connected.sessionId()).isEqualTo(client.sessionId()).isNotZero();

            proxy.cut();
            ConnectionStateChange suspended = recorder.next();
            assertThat(suspended.state()).isEqualTo(ConnectionState.SUSPENDED);
            assertThat(suspended.sessionId()).isEqualTo(connected.sessionId());
            assertThat(client.connectionState()).isEqualTo(ConnectionState.SUSPENDED);

            proxy.heal();
            ConnectionStateChange reconnected = recorder.next();
            assertThat(reconnected.state()).isEqualTo(ConnectionState.RECONNECTED);
            assertThat(reconnected.sessionId()).isEqualTo(connected.sessionId());
            assertThat(List.of(connected.sequence(), suspended.sequence(), reconnected.sequence())).isSorted();
            assertThat(recorder.threads).allMatch(t -> t.startsWith("baton-") && t.contains("-events"));
        }
    }

    @Test
    void serverSideExpiryGivesLostThenANewSessionReconnected() throws Exception {
        Recorder recorder = new Recorder();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, Duration.ofSeconds(20), recorder);
             BatonClient observer = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            long first = recorder.next().sessionId();
            client.create().withMode(CreateMode.EPHEMERAL).forPath("/expiry-owned");

            SessionKiller.expire(client, ensemble.connectString(), WAIT);

            ConnectionStateChange next = recorder.next();
            if (next.state() == ConnectionState.SUSPENDED) {
                next = recorder.next();
            }
            assertThat(next.state()).isEqualTo(ConnectionState.LOST);
            assertThat(next.sessionId()).isEqualTo(first);
            ConnectionStateChange back = recorder.next();
            assertThat(back.state()).isEqualTo(ConnectionState.RECONNECTED);
            assertThat(back.sessionId()).isNotEqualTo(first).isEqualTo(client.sessionId());
            assertThat(observer.checkExists().forPath("/expiry-owned")).isNull();
            // the new session works
            client.create().withMode(CreateMode.EPHEMERAL).forPath("/expiry-owned");
        }
    }

    @Test
    void suspendedLongerThanTheSessionTimeoutIsReportedLostAndANewSessionFollows() throws Exception {
        Recorder recorder = new Recorder();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, Duration.ofSeconds(2), recorder)) {
            long first = recorder.next().sessionId();
            proxy.cut();
            assertThat(recorder.next().state()).isEqualTo(ConnectionState.SUSPENDED);
            ConnectionStateChange lost = recorder.next();
            assertThat(lost.state()).isEqualTo(ConnectionState.LOST);
            assertThat(lost.sessionId()).isEqualTo(first);
            proxy.heal();
            ConnectionStateChange back = recorder.next();
            assertThat(back.state()).isEqualTo(ConnectionState.RECONNECTED);
            assertThat(back.sessionId()).isNotEqualTo(first);
        }
    }

    /**
     * The race of issue 11: the client reports LOST on its own (suspended past the session
     * timeout) while its old handle is reconnecting on the old session; that reconnect reaches the
     * client only afterwards, then the old handle's expiry, then the new session's connect. Driven
     * in exactly that order with real events: ZooKeeper delivers a handle's events and callbacks
     * on one thread, in order, so a callback of the old handle that waits holds everything queued
     * behind it until the test lets it return.
     */
    @Test
    void aLateReconnectOfTheLostSessionsHandleStillEndsOnAUsableNewSession() throws Exception {
        Recorder recorder = new Recorder();
        CountDownLatch eventThreadHeld = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, Duration.ofSeconds(8), recorder)) {
            long first = recorder.next().sessionId();
            ZooKeeper old = client.zookeeper();
            proxy.cut();
            assertThat(recorder.next().state()).isEqualTo(ConnectionState.SUSPENDED);

            // fails with connection loss at the old handle's next connect attempt, on its event thread
            old.exists("/", false, (rc, path, ctx, stat) -> {
                eventThreadHeld.countDown();
                try {
                    letGo.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, null);
            assertThat(eventThreadHeld.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the old handle's event thread is held").isTrue();
            proxy.heal();
            await().atMost(WAIT).until(() -> old.getState() == ZooKeeper.States.CONNECTED);
            assertThat(old.getSessionId()).as("the old handle reconnected on the old session").isEqualTo(first);
            assertThat(recorder.changes).as("the old handle reconnected before the client gave its session up").isEmpty();

            ConnectionStateChange lost = recorder.next();
            assertThat(lost.state()).isEqualTo(ConnectionState.LOST);
            assertThat(lost.sessionId()).isEqualTo(first);
            letGo.countDown(); // now: the old session's SyncConnected, its Expired, then the new session's SyncConnected

            await().atMost(WAIT).until(() -> client.sessionId() != 0 && client.sessionId() != first);
            assertThat(client.blockUntilConnected(WAIT)).isTrue();
            client.create().withMode(CreateMode.EPHEMERAL).forPath("/after-a-late-reconnect");
            ConnectionStateChange back = recorder.next();
            assertThat(back.state()).isEqualTo(ConnectionState.RECONNECTED);
            assertThat(back.sessionId()).as("listeners hear of the new session").isNotEqualTo(first).isEqualTo(client.sessionId());
            assertThat(recorder.changes).as("nothing about the old session after its LOST").isEmpty();
        } finally {
            letGo.countDown();
        }
    }

    /**
     * The same race, seen from the servers: when the client gives a session up on its own, that
     * session ends on the servers too, even though its handle had just reconnected it there — its
     * ephemeral nodes (locks, leaderships) go with the LOST listeners heard, not a session timeout
     * later.
     */
    @Test
    void aSessionTheClientGaveUpOnEndsOnTheServersWithoutAnotherSessionTimeout(BatonClient observer) throws Exception {
        Duration sessionTimeout = Duration.ofSeconds(8);
        Recorder recorder = new Recorder();
        CountDownLatch eventThreadHeld = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, sessionTimeout, recorder)) {
            long first = recorder.next().sessionId();
            String held = "/given-up-session-node";
            client.create().withMode(CreateMode.EPHEMERAL).forPath(held);
            ZooKeeper old = client.zookeeper();
            proxy.cut();
            assertThat(recorder.next().state()).isEqualTo(ConnectionState.SUSPENDED);
            old.exists("/", false, (rc, path, ctx, stat) -> {
                eventThreadHeld.countDown();
                try {
                    letGo.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, null);
            assertThat(eventThreadHeld.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            proxy.heal();
            await().atMost(WAIT).until(() -> old.getState() == ZooKeeper.States.CONNECTED);
            assertThat(old.getSessionId()).as("the old session is alive on the servers again").isEqualTo(first);

            assertThat(recorder.next().state()).isEqualTo(ConnectionState.LOST);
            long lostAt = System.nanoTime();
            letGo.countDown();
            await().atMost(sessionTimeout.dividedBy(2)).pollInterval(Duration.ofMillis(50))
                .until(() -> observer.checkExists().forPath(held) == null);
            assertThat(Duration.ofNanos(System.nanoTime() - lostAt)).as("the old session's node went with the LOST")
                .isLessThan(sessionTimeout.dividedBy(2));
        } finally {
            letGo.countDown();
        }
    }

    @Test
    void withoutAConnectionABlockingOperationFailsAfterTheConnectionTimeout() throws Exception {
        Recorder recorder = new Recorder();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = viaProxy(proxy, Duration.ofSeconds(20), recorder)) {
            recorder.next();
            proxy.cut();
            assertThat(recorder.next().state()).isEqualTo(ConnectionState.SUSPENDED);
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.getData().forPath("/"))
                .isInstanceOf(ConnectionLossException.class)
                .hasMessage("getData /: no connection to the ensemble within PT2S");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
            assertThat(client.getData().forPathAsync("/")).failsWithin(WAIT)
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(ConnectionLossException.class);
        }
    }

    @Test
    void listenersRunInOrderOnTheCallersExecutor() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> new Thread(r, "callers-pool"));
        Recorder recorder = new Recorder();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(20)).eventExecutor(pool).build()) {
            client.addConnectionStateListener(recorder);
            client.start();
            assertThat(recorder.next().state()).isEqualTo(ConnectionState.CONNECTED);
            for (int i = 0; i < 3; i++) {
                proxy.cut();
                assertThat(recorder.next().state()).isEqualTo(ConnectionState.SUSPENDED);
                proxy.heal();
                assertThat(recorder.next().state()).isEqualTo(ConnectionState.RECONNECTED);
            }
            assertThat(recorder.threads).containsOnly("callers-pool");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aListenerThatThrowsDoesNotStopTheOthers() throws Exception {
        Recorder recorder = new Recorder();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = BatonClient.builder().connectString(proxy.connectString()).sessionTimeout(Duration.ofSeconds(20)).build()) {
            client.addConnectionStateListener((c, s) -> {
                throw new IllegalStateException("a broken listener");
            });
            client.addConnectionStateListener(recorder);
            client.start();
            assertThat(recorder.next().state()).isEqualTo(ConnectionState.CONNECTED);
            proxy.cut();
            assertThat(recorder.next().state()).isEqualTo(ConnectionState.SUSPENDED);
        }
    }
}

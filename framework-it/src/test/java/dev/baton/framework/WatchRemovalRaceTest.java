package dev.baton.framework;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.Test;

/**
 * Removing one watcher leaves another one of the same client, same path and same kind watching,
 * also when that other one was added while the removal was under way. The server keeps one watch
 * per session and path, so the client takes it away ({@code removeAllWatches}) only when the watcher
 * it removes is the last of its kind there; a watcher added after that decision but before the
 * removal's request would lose its server watch with it, and hear nothing more.
 *
 * <p>The other watcher is added at the latest point a caller can reach inside {@code remove}: the
 * client's ticker is read by the retry loop as each operation starts, on the caller's thread, and
 * this test's ticker adds the watcher there, once, on the thread that removes. Counted with the
 * server's {@code wchs}: this class has its own server.
 */
@EnsembleTest
class WatchRemovalRaceTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    /** What the ticker runs on its next read on one thread; null when nothing is armed. */
    private record Armed(Thread thread, Runnable action) {
    }

    private final AtomicReference<Armed> armed = new AtomicReference<>();

    private final Ticker ticker = () -> {
        Armed now = armed.get();
        if (now != null && now.thread() == Thread.currentThread() && armed.compareAndSet(now, null)) {
            now.action().run();
        }
        return System.nanoTime();
    };

    @Test
    void aWatcherAddedWhileAnotherIsRemovedKeepsHearingThePath(@ConnectString String connect) throws Exception {
        try (BatonClient client = TestClients.started(BatonClient.builder().connectString(connect).ticker(ticker))) {
            String path = client.create().forPath("/removal-race", bytes("0"));
            BlockingQueue<WatchedEvent> heardByA = new LinkedBlockingQueue<>();
            BlockingQueue<WatchedEvent> heardByB = new LinkedBlockingQueue<>();
            Watcher a = heardByA::add;
            Watcher b = heardByB::add;
            int before = totalWatches();
            client.watches().add(path, AddWatchMode.PERSISTENT, a);

            // while a's removal is under way, b is added at the same path as the same kind, and its add is answered
            armed.set(new Armed(Thread.currentThread(), () -> answered(client.watches().addAsync(path, AddWatchMode.PERSISTENT, b))));
            client.watches().remove(path, a, Watcher.WatcherType.Persistent);
            assertThat(armed.get()).as("b was added during a's removal").isNull();

            client.setData().forPath(path, bytes("1"));
            assertThat(nextChange(heardByB)).as("b's first event after a's removal").extracting(WatchedEvent::getType)
                .isEqualTo(Watcher.Event.EventType.NodeDataChanged);
            client.setData().forPath(path, bytes("2"));
            assertThat(nextChange(heardByB)).as("b's second event").extracting(WatchedEvent::getType)
                .isEqualTo(Watcher.Event.EventType.NodeDataChanged);
            // watchers run in order on the event executor: an event of the first change for a came before b's second
            assertThat(changes(heardByA)).as("what a heard after its removal").isEmpty();

            // the last watcher of the kind there takes the server's watch with it
            client.watches().remove(path, b, Watcher.WatcherType.Persistent);
            await("the server holds no watch of " + path).atMost(WAIT).until(() -> totalWatches() == before);
        }
    }

    @Test
    void aWatcherAddedRightAfterAnotherIsRemovedKeepsHearingThePath(@ConnectString String connect) throws Exception {
        try (BatonClient client = TestClients.started(BatonClient.builder().connectString(connect))) {
            String path = client.create().forPath("/removal-then-add", bytes("0"));
            BlockingQueue<WatchedEvent> heardByB = new LinkedBlockingQueue<>();
            Watcher a = event -> { };
            Watcher b = heardByB::add;
            int before = totalWatches();
            client.watches().add(path, AddWatchMode.PERSISTENT, a);

            // a's removal (the last watcher there: it takes the server's watch) and b's add, asked for one after the other:
            // whichever is sent first, b must end up with the server's watch
            CompletableFuture<Void> removed = client.watches().removeAsync(path, a, Watcher.WatcherType.Persistent);
            CompletableFuture<Void> added = client.watches().addAsync(path, AddWatchMode.PERSISTENT, b);
            removed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            added.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            client.setData().forPath(path, bytes("1"));
            assertThat(nextChange(heardByB)).as("b's event after a's removal").extracting(WatchedEvent::getType)
                .isEqualTo(Watcher.Event.EventType.NodeDataChanged);
            assertThat(totalWatches()).as("the server holds b's watch").isEqualTo(before + 1);
            client.watches().remove(path, b, Watcher.WatcherType.Persistent);
            await("the server holds no watch of " + path).atMost(WAIT).until(() -> totalWatches() == before);
        }
    }

    @Test
    void aBlockingWatchCallOnZooKeepersEventThreadIsRefusedNotLeftHanging(@ConnectString String connect) throws Exception {
        try (BatonClient client = TestClients.started(BatonClient.builder().connectString(connect))) {
            String path = client.create().forPath("/on-event-thread", bytes("0"));
            CompletableFuture<Throwable> addFailed = new CompletableFuture<>();
            CompletableFuture<Throwable> removeFailed = new CompletableFuture<>();
            Watcher inner = event -> { };
            // a watcher set through the raw handle runs on ZooKeeper's event thread, which delivers the answers Baton's
            // blocking watch calls wait for
            client.zookeeper().exists(path, event -> {
                addFailed.complete(failureOf(() -> client.watches().add(path, AddWatchMode.PERSISTENT, inner)));
                removeFailed.complete(failureOf(() -> client.watches().remove(path, inner, Watcher.WatcherType.Any)));
            });
            client.setData().forPath(path, bytes("1"));

            assertThat(addFailed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("addWatch of " + path).hasMessageContaining("ZooKeeper's event thread");
            assertThat(removeFailed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("removeWatches of " + path);
            // from any other thread the blocking forms work
            client.watches().add(path, AddWatchMode.PERSISTENT, inner);
            client.watches().remove(path, inner, Watcher.WatcherType.Any);
        }
    }

    @Test
    void aRemovalWhoseAnswerWasLostIsDoneWhenItIsSentAgain() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(30)))) {
            String path = client.create().forPath("/lost-answer", bytes("0"));
            BlockingQueue<WatchedEvent> heardByA = new LinkedBlockingQueue<>();
            BlockingQueue<WatchedEvent> heardByB = new LinkedBlockingQueue<>();
            Watcher a = heardByA::add;
            Watcher b = heardByB::add;
            int before = totalWatches();
            client.watches().add(path, AddWatchMode.PERSISTENT, a);

            // the server applies a's removal, its answer is lost with the connection, and the client sends it again
            proxy.pauseReplies();
            CompletableFuture<Throwable> removal = CompletableFuture.supplyAsync(() ->
                failureOf(() -> client.watches().remove(path, a, Watcher.WatcherType.Persistent)));
            await("the server applied the removal").atMost(WAIT).until(() -> totalWatches() == before);
            proxy.cut();
            proxy.heal();
            assertThat(removal.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("what the removal threw").isNull();

            // a watcher added there later brings the server's watch back: a hears nothing through it
            client.watches().add(path, AddWatchMode.PERSISTENT, b);
            client.setData().forPath(path, bytes("1"));
            client.setData().forPath(path, bytes("2"));
            assertThat(nextChange(heardByB)).extracting(WatchedEvent::getType).isEqualTo(Watcher.Event.EventType.NodeDataChanged);
            assertThat(nextChange(heardByB)).extracting(WatchedEvent::getType).isEqualTo(Watcher.Event.EventType.NodeDataChanged);
            assertThat(changes(heardByA)).as("what a heard after its removal").isEmpty();
        }
    }

    /** What a blocking call threw, or null if it returned. */
    private static Throwable failureOf(BlockingCall call) {
        try {
            call.run();
            return null;
        } catch (Exception | Error e) {
            return e;
        }
    }

    @FunctionalInterface
    private interface BlockingCall {
        void run() throws Exception;
    }

    private int totalWatches() throws Exception {
        return ServerWatches.total(ensemble.clientPort(1));
    }

    private static void answered(CompletableFuture<Void> added) {
        try {
            added.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("adding the second watcher failed", e);
        }
    }

    /** The next event that is not a connection state change, waiting up to {@link #WAIT}. */
    private static WatchedEvent nextChange(BlockingQueue<WatchedEvent> events) throws InterruptedException {
        while (true) {
            WatchedEvent e = events.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(e).as("an event within " + WAIT).isNotNull();
            if (e.getType() != Watcher.Event.EventType.None) {
                return e;
            }
        }
    }

    /** The node changes among the events heard so far (leaving out the watch's own removal and state changes). */
    private static List<WatchedEvent> changes(BlockingQueue<WatchedEvent> events) {
        List<WatchedEvent> heard = new ArrayList<>();
        events.drainTo(heard);
        heard.removeIf(e -> e.getType() == Watcher.Event.EventType.None
            || e.getType() == Watcher.Event.EventType.PersistentWatchRemoved);
        return heard;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}

package dev.baton.framework;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.junit.jupiter.api.Test;

/**
 * {@code watches().removeAllAsync(path, Data)} takes back the one-shot watches a read left: an
 * exists watch on a node that never comes would otherwise stay on the client and the server for
 * the rest of the session. It leaves a persistent watch at the same path alone, and "nothing to
 * remove" is not a failure. Counted with the server's {@code wchs}: this class has its own server.
 */
@EnsembleTest
class OneShotWatchRemovalTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void anExistsWatchOnAnAbsentNodeIsTakenOffTheClientAndTheServer(BatonClient client) throws Exception {
        String path = "/one-shot/never-comes";
        BlockingQueue<WatchedEvent> heard = new LinkedBlockingQueue<>();
        int before = totalWatches();
        assertThat(client.checkExists().usingWatcher(heard::add).forPath(path)).isNull();
        assertThat(totalWatches()).as("the server holds the exists watch").isEqualTo(before + 1);

        client.watches().removeAllAsync(path, Watcher.WatcherType.Data).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(totalWatches()).as("watches on the server after the removal").isEqualTo(before);
        client.create().creatingParentsIfNeeded().forPath(path);
        assertThat(types(heard, client)).as("what the removed watcher heard, the node created after").containsExactly(
            EventType.DataWatchRemoved);
        // nothing left there: "no watcher" is success
        client.watches().removeAllAsync(path, Watcher.WatcherType.Data).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void aPersistentWatchAtThePathKeepsWatching(BatonClient client) throws Exception {
        String path = client.create().creatingParentsIfNeeded().forPath("/one-shot/shared", bytes("0"));
        BlockingQueue<WatchedEvent> persistent = new LinkedBlockingQueue<>();
        BlockingQueue<WatchedEvent> oneShot = new LinkedBlockingQueue<>();
        Watcher persistentWatcher = persistent::add;
        int before = totalWatches();
        client.watches().add(path, AddWatchMode.PERSISTENT, persistentWatcher);
        client.getData().usingWatcher(oneShot::add).forPath(path);

        client.watches().removeAllAsync(path, Watcher.WatcherType.Data).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(totalWatches()).as("the persistent watch alone is left on the server").isEqualTo(before + 1);
        client.setData().forPath(path, bytes("1"));
        assertThat(types(oneShot, client)).as("what the one-shot watcher heard").containsExactly(EventType.DataWatchRemoved);
        assertThat(types(persistent, client)).as("what the persistent watcher heard").containsExactly(EventType.NodeDataChanged);
        client.watches().remove(path, persistentWatcher, Watcher.WatcherType.Persistent);
    }

    /**
     * "Nothing to remove" is the caller's success, and the client's request meters say so: an
     * operator alerting on {@code baton.client.requests{outcome="failure"}} is not paged for a
     * clean-up that found nothing (as a quiet delete of a node already gone counts as a success).
     */
    @Test
    void aRemovalThatFindsNoWatcherIsCountedAsASucceededRequest(BatonClient client) throws Exception {
        List<Boolean> outcomes = new java.util.concurrent.CopyOnWriteArrayList<>();
        BatonObserver observer = new BatonObserver() {
            @Override
            public void requestCompleted(String operation, long nanos, boolean succeeded) {
                if (operation.equals("removeAllWatches")) {
                    outcomes.add(succeeded);
                }
            }
        };
        client.addObserver(observer);
        try {
            client.watches().removeAllAsync("/one-shot/nobody-watches", Watcher.WatcherType.Any)
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            client.removeObserver(observer);
        }
        assertThat(outcomes).as("removeAllWatches requests reported to the observer (succeeded?), the server having"
            + " answered 'no watcher'").containsExactly(true);
    }

    /**
     * The types of the events {@code heard} got so far: every event of a change made before this
     * call has been delivered once a sync has been answered, and handed on once the event executor
     * has run a task queued after it.
     */
    private static List<EventType> types(BlockingQueue<WatchedEvent> heard, BatonClient client) throws Exception {
        client.sync().forPath("/");
        CompletableFuture<Void> marker = new CompletableFuture<>();
        client.eventExecutor().execute(() -> marker.complete(null));
        marker.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        List<WatchedEvent> events = new ArrayList<>();
        heard.drainTo(events);
        return events.stream().map(WatchedEvent::getType).toList();
    }

    private int totalWatches() throws Exception {
        return ServerWatches.total(ensemble.clientPort(1));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}

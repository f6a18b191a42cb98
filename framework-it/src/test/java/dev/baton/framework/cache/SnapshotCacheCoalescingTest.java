package dev.baton.framework.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Futures;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A listener that blocks does not make a {@link SnapshotCache}'s announcements pile up: while one
 * is queued on the client's event executor, newer snapshots join it instead of queuing their own.
 * Before, every snapshot published while the listener blocked was queued with a whole copy of the
 * map, and the listener was walked through each of them once it returned.
 */
@EnsembleTest
class SnapshotCacheCoalescingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int WRITES = 200;

    /** One call of the listener. */
    private record Told(SnapshotCache.Snapshot previous, SnapshotCache.Snapshot current, Set<String> changed) {
        String value(String path) {
            return current.get(path).map(n -> new String(n.data(), StandardCharsets.UTF_8)).orElse(null);
        }
    }

    @Test
    void snapshotsPublishedWhileAListenerBlocksReachItAsOneAnnouncementOfTheLatest(BatonClient client) throws Exception {
        String root = "/coalesce/blocked";
        String path = root + "/n";
        String gone = root + "/gone";
        client.create().creatingParentsIfNeeded().forPath(path, bytes("0"));
        List<Told> told = new CopyOnWriteArrayList<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (SnapshotCache cache = SnapshotCache.builder(client, root).build()) {
            cache.addListener((previous, current, changed) -> {
                Told t = new Told(previous, current, changed);
                told.add(t);
                if ("1".equals(t.value(path))) {
                    entered.countDown();
                    try {
                        release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS); // blocks the client's event executor
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            client.setData().forPath(path, bytes("1"));
            assertThat(entered.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the listener is told of value 1 and blocks").isTrue();
            int before = told.size();

            // a node that comes and goes while the listener blocks: no snapshot it is told of differs there
            client.create().forPath(gone, bytes("x"));
            client.delete().forPath(gone);
            String last = Integer.toString(WRITES);
            for (int i = 2; i < WRITES; i++) {
                client.setData().forPath(path, bytes(Integer.toString(i)));
            }
            // The blocking calls use ZooKeeper's synchronous API, whose replies can overtake the watch events still queued for
            // ZooKeeper's event thread; an asynchronous call's answer is taken there, in order with the events the cache handles
            // there, and only then handed to the pool that completes its future. So once the last write's future completes, the
            // cache has handled its event (the server sends
            // it before the reply) and sent its read; the read below, sent after that, is answered after it: once it completes,
            // the snapshot with the last value has been made, and waits for the blocked executor.
            Futures.await(client.setData().forPathAsync(path, bytes(last)));
            Futures.await(client.getData().forPathAsync(path));
            release.countDown();

            await("the listener is told of the last value").atMost(WAIT).until(() -> last.equals(told.get(told.size() - 1).value(path)));
            assertThat(cache.current().get(path)).isPresent();
            List<Told> after = told.subList(before, told.size());
            assertThat(after.size())
                .as("calls after the one that blocked, for values 2 to %d written while it blocked (sequences told %s)", WRITES,
                    after.stream().map(t -> t.current().sequence()).toList())
                .isLessThanOrEqualTo(1);
            for (int i = 1; i < told.size(); i++) {
                assertThat(told.get(i).previous()).as("call %d is told what changed since the snapshot of call %d", i, i - 1)
                    .isSameAs(told.get(i - 1).current());
                assertThat(told.get(i).current().sequence()).isGreaterThan(told.get(i - 1).current().sequence());
            }
            Told coalesced = told.get(told.size() - 1);
            assertThat(coalesced.changed()).as("paths changed between the snapshots of the coalesced call").containsExactly(path);
            assertThat(cache.current()).isSameAs(coalesced.current());
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

package dev.baton.framework.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ServerWatches;
import dev.baton.framework.WatchesBuilder;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.Test;

/**
 * A closed cache leaves no watch on the session: once close() has returned and its removal has
 * had its round trip, the server holds no watch of the cache's root, even when the cache's
 * addWatch was still on its way when it was closed (it reaches the server after the remove, as a
 * retried or queued request does). Otherwise the server sends every change of the subtree to a
 * closed cache for the rest of the session, one more recursive watch for each store closed and
 * made again on a long-lived client. Counted with the server's {@code wchs}: this class has its
 * own server, and each test starts from the count it finds.
 */
@EnsembleTest
class CloseLeavesNoWatchTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void aSnapshotCacheClosedWhileItsWatchIsOnItsWayLeavesNone(BatonClient client) throws Exception {
        String root = "/close-watch/snapshot";
        client.create().creatingParentsIfNeeded().forPath(root + "/.fence");
        closedWhileAddingLeavesNone(client, root, held -> {
            SnapshotCache cache = SnapshotCache.builder(held, root).fence(root + "/.fence").build();
            cache.start();
            return cache;
        });
    }

    @Test
    void aTreeCacheClosedWhileItsWatchIsOnItsWayLeavesNone(BatonClient client) throws Exception {
        String root = "/close-watch/tree";
        client.create().creatingParentsIfNeeded().forPath(root + "/a");
        closedWhileAddingLeavesNone(client, root, held -> {
            TreeCache cache = TreeCache.builder(held, root).build();
            cache.start();
            return cache;
        });
    }

    /** The ordinary case, and the proof that {@code wchs} counts a cache's recursive watch. */
    @Test
    void aCacheClosedAfterItLoadedLeavesNone(BatonClient client) throws Exception {
        String root = "/close-watch/loaded";
        client.create().creatingParentsIfNeeded().forPath(root + "/.fence");
        client.create().forPath(root + "/tree");
        int before = totalWatches();
        SnapshotCache snapshots = SnapshotCache.builder(client, root).fence(root + "/.fence").build();
        // on another path: the server keeps one watch per session and path, however many watchers the client has there
        TreeCache tree = TreeCache.builder(client, root + "/tree").build();
        snapshots.start();
        tree.start();
        assertThat(snapshots.awaitInitialized(WAIT)).isTrue();
        assertThat(tree.awaitInitialized(WAIT)).isTrue();
        assertThat(totalWatches()).as("watches on the server while both caches run").isEqualTo(before + 2);
        snapshots.close();
        tree.close();
        await("the server holds no watch of the closed caches").atMost(WAIT).until(() -> totalWatches() == before);
    }

    /** A cache making function, given the client whose addWatch requests are held. */
    @FunctionalInterface
    private interface Starter {
        AutoCloseable start(BatonClient held) throws Exception;
    }

    private void closedWhileAddingLeavesNone(BatonClient client, String root, Starter starter) throws Exception {
        int before = totalWatches();
        HeldWatches held = new HeldWatches(client);
        AutoCloseable cache = starter.start(held.client);
        // the cache has asked for its watch and the request waits, as one queued behind a reconnect would
        await("the cache asked for its watch").atMost(WAIT).until(() -> held.asked.get() > 0);
        cache.close();
        held.release.complete(null);
        // the held addWatch has now had its answer: the server applied it after the close's remove
        held.sent.get(WAIT.toMillis(), TimeUnit.MILLISECONDS).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        await("the server holds no watch of the closed cache of " + root).atMost(WAIT).until(() -> totalWatches() == before);
    }

    private int totalWatches() throws Exception {
        return ServerWatches.total(ensemble.clientPort(1));
    }

    /**
     * A client (as a user's decorator would be) whose {@code watches().addAsync} requests are sent
     * on only once {@code release} completes; {@code sent} gets the first real request's answer.
     */
    private static final class HeldWatches {
        final CompletableFuture<Void> release = new CompletableFuture<>();
        final CompletableFuture<CompletableFuture<Void>> sent = new CompletableFuture<>();
        final AtomicInteger asked = new AtomicInteger();
        final BatonClient client;

        HeldWatches(BatonClient real) {
            client = (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(), new Class<?>[] {BatonClient.class},
                (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    return result instanceof WatchesBuilder watches ? holding(watches) : result;
                });
        }

        private WatchesBuilder holding(WatchesBuilder watches) {
            return (WatchesBuilder) Proxy.newProxyInstance(WatchesBuilder.class.getClassLoader(), new Class<?>[] {WatchesBuilder.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("addAsync")) {
                        return invoke(watches, method, args);
                    }
                    asked.incrementAndGet();
                    return release.thenCompose(v -> {
                        CompletableFuture<Void> answer = watches.addAsync((String) args[0], (AddWatchMode) args[1], (Watcher) args[2]);
                        sent.complete(answer);
                        return answer;
                    });
                });
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}

package dev.baton.bench;

import dev.baton.framework.BatonClient;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Curator, Baton and plain ZooKeeper clients connected with the same settings for the
 * benchmarks, so no side is set up differently. Each goes through {@link Lan#route} (a delay
 * proxy of its own when a benchmark runs with {@code --lan}).
 */
final class Clients {
    static final int SESSION_MS = 30_000;

    private Clients() {
    }

    static CuratorFramework curator(String connect) throws InterruptedException {
        CuratorFramework curator = CuratorFrameworkFactory.newClient(Lan.route(connect), SESSION_MS, 15_000,
            new ExponentialBackoffRetry(100, 5));
        curator.start();
        if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
            curator.close();
            throw new IllegalStateException("Curator did not connect to " + connect);
        }
        return curator;
    }

    static BatonClient baton(String connect) throws InterruptedException {
        return baton(BatonClient.builder(), connect);
    }

    /**
     * A Baton client whose listeners and watchers run in place, on ZooKeeper's event thread
     * ({@code eventExecutor(Runnable::run)}), as Curator's do: not Baton's default contract (a
     * blocking Baton call from such a listener can wait for an answer that same thread delivers),
     * only a benchmark's measure of what the hand-off to the event executor costs.
     */
    static BatonClient batonInPlace(String connect) throws InterruptedException {
        return baton(BatonClient.builder().eventExecutor(Runnable::run), connect);
    }

    private static BatonClient baton(BatonClient.Builder builder, String connect) throws InterruptedException {
        BatonClient client = builder.connectString(Lan.route(connect)).sessionTimeout(Duration.ofMillis(SESSION_MS)).build();
        client.start();
        if (!client.blockUntilConnected(Duration.ofSeconds(30))) {
            client.close();
            throw new IllegalStateException("Baton did not connect to " + connect);
        }
        return client;
    }

    /** Closes a plain client, keeping the interrupt of a thread interrupted meanwhile. */
    static void closeQuietly(ZooKeeper zk) {
        try {
            zk.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Creates the persistent node {@code path} with the plain client unless it is there already. */
    static void folder(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        try {
            zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // there from an earlier phase
        }
    }

    /**
     * Brings {@code zk}'s server up to the leader before a first read: a node another client has
     * just created may not be on this client's server yet (ZooKeeper orders a session's own reads
     * after its own writes only), and a read there would find no node.
     */
    static void caughtUp(ZooKeeper zk, String path) throws InterruptedException {
        CountDownLatch synced = new CountDownLatch(1);
        zk.sync(path, (rc, p, ctx) -> synced.countDown(), null);
        if (!synced.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no answer to a sync of " + path + " within 30 s");
        }
    }

    /** A plain ZooKeeper client (the raw limit), connected. */
    static ZooKeeper raw(String connect) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(Lan.route(connect), SESSION_MS, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            zk.close();
            throw new IllegalStateException("the plain ZooKeeper client did not connect to " + connect);
        }
        return zk;
    }
}

package dev.baton.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.config.ConfigStore;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.NodeCache;
import org.apache.curator.framework.recipes.shared.SharedValue;
import org.apache.zookeeper.ZooKeeper;

/**
 * The cached reads of the config benchmark, ns/op on one thread: {@code ConfigStore.getString}
 * and {@code get} against Curator's {@code SharedValue.getValue()} and
 * {@code NodeCache.getCurrentData().getData()}, and for scale one blocking {@code getData} round
 * trip on the plain client.
 */
final class ConfigCachedReads {
    private static final long BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static volatile long sink;

    private ConfigCachedReads() {
    }

    @SuppressWarnings("deprecation")
    static void run(String connect) throws Exception {
        try (BatonClient baton = Clients.baton(connect); CuratorFramework curator = Clients.curator(connect);
             ConfigStore store = ConfigStore.builder(baton, "/bench-read").build()) {
            store.set("http/timeout", "250ms");
            store.set("feature/x", "on");
            store.start();
            PropagationSide.awaitTrue(() -> {
                try {
                    return store.awaitInitialized(PropagationSide.WAIT) && store.getString("feature/x").isPresent();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            SharedValue shared = new SharedValue(curator, "/bench-read-shared", "on".getBytes(UTF_8));
            shared.start();
            NodeCache node = new NodeCache(curator, "/bench-read-shared");
            node.start(true);
            try {
                long warmEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                while (System.nanoTime() < warmEnd) {
                    loopString(store, BATCH_NANOS);
                    loopBytes(store, BATCH_NANOS);
                    loopShared(shared, BATCH_NANOS);
                    loopNode(node, BATCH_NANOS);
                }
                double[][] ns = new double[4][10];
                for (int i = 0; i < 10; i++) {
                    ns[0][i] = loopString(store, BATCH_NANOS);
                    ns[1][i] = loopBytes(store, BATCH_NANOS);
                    ns[2][i] = loopShared(shared, BATCH_NANOS);
                    ns[3][i] = loopNode(node, BATCH_NANOS);
                }
                System.out.printf("Cached reads, 1 thread, ns/op (median of 10 x %d ms batches after 2 s warm-up)%n",
                    TimeUnit.NANOSECONDS.toMillis(BATCH_NANOS));
                System.out.printf("%-44s %10s %10s %10s%n", "", "median", "min", "max");
                String[] names = {"Baton   ConfigStore.getString(key)", "Baton   ConfigStore.get(key) (byte[] copy)",
                    "Curator SharedValue.getValue() (byte[] copy)", "Curator NodeCache.getCurrentData().getData()"};
                for (int i = 0; i < 4; i++) {
                    Stats s = Stats.of(ns[i]);
                    System.out.printf("%-44s %10.1f %10.1f %10.1f%n", names[i], s.median(), s.min(), s.max());
                }
                System.out.printf("median ratio getString/SharedValue.getValue: %.2f, get/SharedValue.getValue: %.2f (below 1: faster)%n",
                    Stats.of(ns[0]).median() / Stats.of(ns[2]).median(), Stats.of(ns[1]).median() / Stats.of(ns[2]).median());
                System.out.printf("raw     getData round trip (no cache), ns/op: %.0f (what every read costs without one)%n", rawRead(connect));
                System.out.println();
            } finally {
                node.close();
                shared.close();
            }
        }
    }

    // Each loop keeps its own call site (one receiver type each), so the JIT inlines the read as in real use.

    private static double loopString(ConfigStore store, long nanos) {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += store.getString("feature/x").map(String::length).orElse(0);
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < start + nanos);
        sink += acc;
        return (double) (now - start) / calls;
    }

    private static double loopBytes(ConfigStore store, long nanos) {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += store.get("feature/x").map(b -> b.length).orElse(0);
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < start + nanos);
        sink += acc;
        return (double) (now - start) / calls;
    }

    private static double loopShared(SharedValue shared, long nanos) {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += shared.getValue().length;
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < start + nanos);
        sink += acc;
        return (double) (now - start) / calls;
    }

    @SuppressWarnings("deprecation")
    private static double loopNode(NodeCache node, long nanos) {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += node.getCurrentData().getData().length;
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < start + nanos);
        sink += acc;
        return (double) (now - start) / calls;
    }

    /** ns per blocking getData with the plain client, median of five batches of 500. */
    private static double rawRead(String connect) throws Exception {
        ZooKeeper zk = Clients.raw(connect);
        try {
            Clients.caughtUp(zk, "/bench-read-shared");
            double[] batches = new double[5];
            for (int b = 0; b < batches.length; b++) {
                long start = System.nanoTime();
                for (int i = 0; i < 500; i++) {
                    sink += zk.getData("/bench-read-shared", false, null).length;
                }
                batches[b] = (System.nanoTime() - start) / 500.0;
            }
            return Stats.of(batches).median();
        } finally {
            Clients.closeQuietly(zk);
        }
    }
}

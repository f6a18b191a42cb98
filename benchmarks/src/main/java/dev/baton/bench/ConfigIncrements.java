package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.recipes.config.AtomicValue;
import dev.baton.recipes.config.DistributedAtomicLong;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The contended increments of the config benchmark: {@code DistributedAtomicLong.increment()}
 * with {@link #CONTENDERS} clients on one counter, each on its own client and thread, optimistic
 * only, retried without pause, Baton against Curator and the raw read-and-write-at-version loop.
 */
final class ConfigIncrements {
    private static final int CONTENDERS = 8;
    private static final Duration INCREMENT_RUN = Duration.ofSeconds(4);

    private ConfigIncrements() {
    }

    static void run(String connect) throws Exception {
        List<BatonClient> batons = new ArrayList<>();
        List<CuratorFramework> curators = new ArrayList<>();
        List<ZooKeeper> raws = new ArrayList<>();
        try {
            for (int i = 0; i < CONTENDERS; i++) {
                batons.add(Clients.baton(connect));
                curators.add(Clients.curator(connect));
                raws.add(Clients.raw(connect));
            }
            double[] b = new double[3];
            double[] c = new double[3];
            double[] r = new double[3];
            long[] bRetries = new long[3];
            long[] cRetries = new long[3];
            long[] rRetries = new long[3];
            for (int run = 0; run < 3; run++) {
                long[] rResult = rawIncrements(raws, "/bench-counter-raw-" + run);
                long[] bResult = batonIncrements(batons, "/bench-counter-baton-" + run);
                long[] cResult = curatorIncrements(curators, "/bench-counter-curator-" + run);
                r[run] = rResult[0] / (INCREMENT_RUN.toNanos() / 1e9);
                b[run] = bResult[0] / (INCREMENT_RUN.toNanos() / 1e9);
                c[run] = cResult[0] / (INCREMENT_RUN.toNanos() / 1e9);
                rRetries[run] = rResult[1];
                bRetries[run] = bResult[1];
                cRetries[run] = cResult[1];
            }
            Stats sr = Stats.of(r);
            Stats sb = Stats.of(b);
            Stats sc = Stats.of(c);
            System.out.printf("DistributedAtomicLong.increment(), %d clients contending, optimistic, increments/s over %d s (3 alternating runs)%n",
                CONTENDERS, INCREMENT_RUN.toSeconds());
            System.out.printf("%-44s %10s %10s %10s %16s%n", "", "median", "min", "max", "failed/run (med)");
            System.out.printf("%-44s %10.0f %10.0f %10.0f %16.0f%n", "raw     getData + setData(version) loop", sr.median(), sr.min(),
                sr.max(), Stats.of(toDoubles(rRetries)).median());
            System.out.printf("%-44s %10.0f %10.0f %10.0f %16.0f%n", "Baton   DistributedAtomicLong", sb.median(), sb.min(), sb.max(),
                Stats.of(toDoubles(bRetries)).median());
            System.out.printf("%-44s %10.0f %10.0f %10.0f %16.0f%n", "Curator DistributedAtomicLong", sc.median(), sc.min(), sc.max(),
                Stats.of(toDoubles(cRetries)).median());
            System.out.printf("median ratio Baton/Curator: %.2f, Baton/raw: %.2f (above 1 means Baton counts faster)%n",
                sb.median() / sc.median(), sb.median() / sr.median());
        } finally {
            curators.forEach(CuratorFramework::close);
            batons.forEach(BatonClient::close);
            raws.forEach(Clients::closeQuietly);
        }
    }

    private static double[] toDoubles(long[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }

    /**
     * The limit: each client reads the counter with its version and writes it back plus one at
     * that version, again at once when another client came first; the same 8 bytes as the recipes.
     * {increments done, attempts that lost a race}; checks the counter's total.
     */
    private static long[] rawIncrements(List<ZooKeeper> clients, String path) throws Exception {
        try {
            clients.get(0).create(path, ByteBuffer.allocate(Long.BYTES).putLong(0).array(), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // a re-run on the same ensemble
        }
        AtomicLong done = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        long end = System.nanoTime() + INCREMENT_RUN.toNanos();
        CountDownLatch finished = new CountDownLatch(clients.size());
        for (ZooKeeper zk : clients) {
            Thread t = new Thread(() -> {
                try {
                    Clients.caughtUp(zk, path);
                    while (System.nanoTime() < end) {
                        Stat stat = new Stat();
                        long value = ByteBuffer.wrap(zk.getData(path, false, stat)).getLong();
                        try {
                            zk.setData(path, ByteBuffer.allocate(Long.BYTES).putLong(value + 1).array(), stat.getVersion());
                            done.incrementAndGet();
                        } catch (KeeperException.BadVersionException e) {
                            lost.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (KeeperException e) {
                    throw new IllegalStateException(e);
                } finally {
                    finished.countDown();
                }
            });
            t.start();
        }
        finished.await();
        long total = ByteBuffer.wrap(clients.get(0).getData(path, false, null)).getLong();
        if (total != done.get()) {
            throw new IllegalStateException("raw counter at " + total + " after " + done.get() + " increments");
        }
        return new long[] {done.get(), lost.get()};
    }

    /** {increments done, attempts that lost a race}; checks the counter's total. */
    private static long[] batonIncrements(List<BatonClient> clients, String path) throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        long end = System.nanoTime() + INCREMENT_RUN.toNanos();
        CountDownLatch finished = new CountDownLatch(clients.size());
        for (BatonClient client : clients) {
            DistributedAtomicLong counter = new DistributedAtomicLong(client, path, (retry, elapsed, cause) -> {
                lost.incrementAndGet();
                return Optional.of(Duration.ZERO);
            });
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        AtomicValue<Long> v = counter.increment();
                        if (v.succeeded()) {
                            done.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    finished.countDown();
                }
            });
            t.start();
        }
        finished.await();
        long total = new DistributedAtomicLong(clients.get(0), path, new RetryNTimes(0, Duration.ZERO)).get().postValue();
        if (total != done.get()) {
            throw new IllegalStateException("Baton counter at " + total + " after " + done.get() + " increments");
        }
        return new long[] {done.get(), lost.get()};
    }

    private static long[] curatorIncrements(List<CuratorFramework> clients, String path) throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        long end = System.nanoTime() + INCREMENT_RUN.toNanos();
        CountDownLatch finished = new CountDownLatch(clients.size());
        for (CuratorFramework client : clients) {
            org.apache.curator.framework.recipes.atomic.DistributedAtomicLong counter =
                new org.apache.curator.framework.recipes.atomic.DistributedAtomicLong(client, path, (retryCount, elapsedTimeMs, sleeper) -> {
                    lost.incrementAndGet();
                    return true;
                });
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        if (counter.increment().succeeded()) {
                            done.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    finished.countDown();
                }
            });
            t.start();
        }
        finished.await();
        long total = new org.apache.curator.framework.recipes.atomic.DistributedAtomicLong(clients.get(0), path,
            new org.apache.curator.retry.RetryNTimes(0, 0)).get().postValue();
        if (total != done.get()) {
            throw new IllegalStateException("Curator counter at " + total + " after " + done.get() + " increments");
        }
        return new long[] {done.get(), lost.get()};
    }
}

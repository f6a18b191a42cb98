package dev.baton.recipes.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;

/** DistributedAtomicLong on its own, and counting together with Curator 5.9's on one node. */
@EnsembleTest
class DistributedAtomicLongTest {
    private static final int PER_CLIENT = 60;
    private static final Pattern CURATOR_LOCK_NODE = Pattern.compile("_c_[0-9a-f-]{36}-lock-\\d{10}");

    @ConnectString
    String connect;

    private CuratorFramework curator() throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.newClient(connect, 10_000, 10_000, new RetryOneTime(100));
        c.start();
        assertThat(c.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
        return c;
    }

    @Test
    void aCounterStartsAtZeroAndKeepsEightBigEndianBytes(BatonClient client) throws Exception {
        DistributedAtomicLong counter = new DistributedAtomicLong(client, "/counters/basic", new RetryNTimes(3, Duration.ZERO));
        assertThat(counter.get()).isEqualTo(new AtomicValue<>(true, 0L, 0L));
        assertThat(counter.compareAndSet(0L, 5L).succeeded()).as("never set: fails, as Curator's").isFalse();
        assertThat(counter.initialize(10L)).isTrue();
        assertThat(counter.initialize(20L)).isFalse();
        assertThat(counter.increment()).isEqualTo(new AtomicValue<>(true, 10L, 11L));
        assertThat(counter.add(-12L)).isEqualTo(new AtomicValue<>(true, 11L, -1L));
        assertThat(client.getData().forPath("/counters/basic")).containsExactly(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
        assertThat(counter.compareAndSet(-1L, 100L)).isEqualTo(new AtomicValue<>(true, -1L, 100L));
        assertThat(counter.compareAndSet(-1L, 200L)).isEqualTo(new AtomicValue<>(false, 100L, 100L));
        assertThat(counter.trySet(7L).postValue()).isEqualTo(7L);
        counter.forceSet(Long.MAX_VALUE);
        assertThat(client.getData().forPath("/counters/basic")).containsExactly(0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
        assertThat(counter.decrement().postValue()).isEqualTo(Long.MAX_VALUE - 1);

        client.setData().forPath("/counters/basic", new byte[] {1, 2, 3});
        assertThatThrownBy(counter::get).isInstanceOf(ConfigValueException.class)
            .hasMessage("DistributedAtomicLong /counters/basic: expected 8 bytes (a big-endian long), was 3 bytes");
        assertThatThrownBy(() -> counter.add(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("delta");
    }

    @Test
    void curatorAndBatonReadEachOthersCounter(BatonClient client) throws Exception {
        try (CuratorFramework c = curator()) {
            org.apache.curator.framework.recipes.atomic.DistributedAtomicLong theirs =
                new org.apache.curator.framework.recipes.atomic.DistributedAtomicLong(c, "/counters/shared",
                    new org.apache.curator.retry.RetryNTimes(3, 0));
            DistributedAtomicLong ours = new DistributedAtomicLong(client, "/counters/shared", new RetryNTimes(3, Duration.ZERO));
            assertThat(theirs.add(41L).postValue()).isEqualTo(41L);
            assertThat(ours.increment()).isEqualTo(new AtomicValue<>(true, 41L, 42L));
            assertThat(theirs.get().postValue()).isEqualTo(42L);
            assertThat(theirs.compareAndSet(42L, -5L).succeeded()).isTrue();
            assertThat(ours.get().postValue()).isEqualTo(-5L);
        }
    }

    /** Runs {@code tasks} at once and returns every post value they reported. */
    private static List<Long> together(List<Callable<List<Long>>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<List<Long>>> running = new ArrayList<>();
            tasks.forEach(t -> running.add(pool.submit(t)));
            List<Long> all = new ArrayList<>();
            for (Future<List<Long>> f : running) {
                all.addAll(f.get(120, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void curatorAndBatonClientsIncrementingOneCounterConcurrentlyCountExactly() throws Exception {
        List<BatonClient> batons = new ArrayList<>();
        List<CuratorFramework> curators = new ArrayList<>();
        try {
            List<Callable<List<Long>>> tasks = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                BatonClient b = TestClients.started(connect, Duration.ofSeconds(10));
                batons.add(b);
                DistributedAtomicLong ours = new DistributedAtomicLong(b, "/counters/race", new RetryNTimes(10_000, Duration.ZERO));
                tasks.add(() -> {
                    List<Long> got = new ArrayList<>();
                    for (int n = 0; n < PER_CLIENT; n++) {
                        AtomicValue<Long> v = ours.increment();
                        assertThat(v.succeeded()).isTrue();
                        got.add(v.postValue());
                    }
                    return got;
                });
                CuratorFramework c = curator();
                curators.add(c);
                org.apache.curator.framework.recipes.atomic.DistributedAtomicLong theirs =
                    new org.apache.curator.framework.recipes.atomic.DistributedAtomicLong(c, "/counters/race",
                        new org.apache.curator.retry.RetryNTimes(10_000, 0));
                tasks.add(() -> {
                    List<Long> got = new ArrayList<>();
                    for (int n = 0; n < PER_CLIENT; n++) {
                        org.apache.curator.framework.recipes.atomic.AtomicValue<Long> v = theirs.increment();
                        assertThat(v.succeeded()).isTrue();
                        got.add(v.postValue());
                    }
                    return got;
                });
            }
            List<Long> posts = together(tasks);
            long total = 6L * PER_CLIENT;
            assertThat(new DistributedAtomicLong(batons.get(0), "/counters/race", new RetryNTimes(0, Duration.ZERO)).get().postValue())
                .isEqualTo(total);
            assertThat(posts).as("every step handed out once, to one side").containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(1, total).boxed().toList());
        } finally {
            curators.forEach(CuratorFramework::close);
            batons.forEach(BatonClient::close);
        }
    }

    @Test
    void promotedCountersOfBothKindsShareTheCuratorMutexAndStillCountExactly(BatonClient observer) throws Exception {
        String counterPath = "/counters/promoted";
        String lockPath = "/counters/promoted-lock";
        Set<String> lockNodesSeen = ConcurrentHashMap.newKeySet();
        AtomicBoolean watching = new AtomicBoolean(true);
        Thread watcher = new Thread(() -> {
            while (watching.get()) {
                try {
                    lockNodesSeen.addAll(observer.getChildren().forPath(lockPath));
                } catch (dev.baton.framework.NoNodeException e) {
                    // not created yet, or reaped (a container)
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        List<BatonClient> batons = new ArrayList<>();
        List<CuratorFramework> curators = new ArrayList<>();
        try {
            watcher.start();
            List<Callable<List<Long>>> tasks = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                BatonClient b = TestClients.started(connect, Duration.ofSeconds(10));
                batons.add(b);
                // give up optimism at once, so contention goes through the lock
                DistributedAtomicLong ours = new DistributedAtomicLong(b, counterPath, new RetryNTimes(0, Duration.ZERO),
                    PromotedToLock.builder().lockPath(lockPath).timeout(Duration.ofSeconds(60)).retryPolicy(new RetryNTimes(100, Duration.ZERO))
                        .build());
                tasks.add(() -> {
                    List<Long> got = new ArrayList<>();
                    for (int n = 0; n < PER_CLIENT / 2; n++) {
                        AtomicValue<Long> v = ours.increment();
                        assertThat(v.succeeded()).isTrue();
                        got.add(v.postValue());
                    }
                    return got;
                });
                CuratorFramework c = curator();
                curators.add(c);
                org.apache.curator.framework.recipes.atomic.DistributedAtomicLong theirs =
                    new org.apache.curator.framework.recipes.atomic.DistributedAtomicLong(c, counterPath,
                        new org.apache.curator.retry.RetryNTimes(0, 0),
                        org.apache.curator.framework.recipes.atomic.PromotedToLock.builder().lockPath(lockPath)
                            .timeout(60, TimeUnit.SECONDS).retryPolicy(new org.apache.curator.retry.RetryNTimes(100, 0)).build());
                tasks.add(() -> {
                    List<Long> got = new ArrayList<>();
                    for (int n = 0; n < PER_CLIENT / 2; n++) {
                        org.apache.curator.framework.recipes.atomic.AtomicValue<Long> v = theirs.increment();
                        assertThat(v.succeeded()).isTrue();
                        got.add(v.postValue());
                    }
                    return got;
                });
            }
            List<Long> posts = together(tasks);
            long total = 2L * PER_CLIENT;
            assertThat(posts).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, total).boxed().toList());
            assertThat(lockNodesSeen).as("updates were promoted to the mutex").isNotEmpty()
                .allMatch(name -> CURATOR_LOCK_NODE.matcher(name).matches());
        } finally {
            watching.set(false);
            watcher.join();
            curators.forEach(CuratorFramework::close);
            batons.forEach(BatonClient::close);
        }
    }
}

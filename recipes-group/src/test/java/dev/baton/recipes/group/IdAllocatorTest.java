package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Unique, increasing ids from blocks; strictly monotonic ids; and no id reused when a reservation's reply is lost. */
@EnsembleTest
class IdAllocatorTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    private static String dataOf(BatonClient client, String path) throws InterruptedException {
        return new String(client.getData().forPath(path), US_ASCII);
    }

    @Test
    void idsAreUniqueAcrossClientsAllocatorsAndThreadsAndIncreaseForEachThread(BatonClient a, BatonClient b) throws Exception {
        List<IdAllocator> allocators = List.of(
            IdAllocator.builder(a, "/ids/shared").blockSize(37).build(),
            IdAllocator.builder(a, "/ids/shared").blockSize(1).build(),
            IdAllocator.builder(b, "/ids/shared").blockSize(100).build(),
            IdAllocator.builder(b, "/ids/shared").strictlyMonotonic().build());
        Set<Long> all = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<Long>>> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                IdAllocator allocator = allocators.get(t % allocators.size());
                threads.add(pool.submit(() -> {
                    List<Long> mine = new ArrayList<>();
                    for (int i = 0; i < 300; i++) {
                        mine.add(allocator.next());
                    }
                    return mine;
                }));
            }
            for (Future<List<Long>> thread : threads) {
                List<Long> mine = thread.get(60, TimeUnit.SECONDS);
                assertThat(mine).as("a thread's ids increase").isSorted().doesNotHaveDuplicates();
                for (long id : mine) {
                    assertThat(all.add(id)).as("id %d handed out twice", id).isTrue();
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(all).hasSize(8 * 300);
        assertThat(all).allMatch(id -> id >= 1);
    }

    @Test
    void aBlockCostsOneWriteAndIdsComeFromMemory(BatonClient client) throws Exception {
        IdAllocator allocator = IdAllocator.builder(client, "/ids/blocks").blockSize(100).build();
        long[] ids = allocator.next(1000);
        assertThat(ids[0]).isEqualTo(1);
        for (int i = 1; i < ids.length; i++) {
            assertThat(ids[i]).isEqualTo(ids[i - 1] + 1);
        }
        int writes = client.checkExists().forPath("/ids/blocks").getVersion() + 1;   // the create, then one setData per block
        assertThat(writes).as("10 blocks used, and the 11th reserved ahead").isBetween(10, 11);
    }

    @Test
    void strictlyMonotonicIdsIncreaseInRealTimeOrderAcrossClientsAtAWritePerCall(BatonClient a, BatonClient b) throws Exception {
        IdAllocator first = IdAllocator.builder(a, "/ids/strict").strictlyMonotonic().build();
        IdAllocator second = IdAllocator.builder(b, "/ids/strict").strictlyMonotonic().build();
        long previous = 0;
        for (int i = 0; i < 20; i++) {
            long id = (i % 2 == 0 ? first : second).next();
            assertThat(id).as("call %d", i).isGreaterThan(previous);
            previous = id;
        }
        long[] batch = first.next(5);
        assertThat(batch).containsExactly(previous + 1, previous + 2, previous + 3, previous + 4, previous + 5);
        assertThat(a.checkExists().forPath("/ids/strict").getVersion() + 1).as("one write per call").isEqualTo(21);
    }

    @Test
    void aNodeSeededWithANumberStartsThereAndAnythingElseIsRefused(BatonClient client) throws Exception {
        client.create().creatingParentsIfNeeded().forPath("/ids/seeded", "5000".getBytes(US_ASCII));
        assertThat(IdAllocator.builder(client, "/ids/seeded").build().next()).isEqualTo(5000);
        assertThat(dataOf(client, "/ids/seeded")).matches("6000 [0-9a-f-]{36}");

        client.create().forPath("/ids/corrupt", "hello".getBytes(US_ASCII));
        IdAllocator corrupt = IdAllocator.builder(client, "/ids/corrupt").build();
        assertThatThrownBy(corrupt::next).isInstanceOf(IdAllocatorException.class).hasMessageContaining("/ids/corrupt holds 'hello'");
        assertThat(dataOf(client, "/ids/corrupt")).as("left as it was").isEqualTo("hello");

        IdAllocator last = IdAllocator.builder(client, "/ids/last").firstId(IdAllocator.ID_LIMIT - 5).blockSize(10).build();
        assertThatThrownBy(last::next).isInstanceOf(IdAllocatorException.class).hasMessageContaining("run out of ids");
        assertThatThrownBy(() -> IdAllocator.builder(client, "/ids/x").blockSize(0))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("blockSize must be 1 to 10000000, was 0");
    }

    private BatonClient throughProxy(ChaosProxy proxy) {
        return TestClients.started(BatonClient.builder().connectString(proxy.connectString())
            .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofSeconds(5))
            .retryPolicy(new RetryNTimes(20, Duration.ofMillis(20))));
    }

    /** Runs {@code allocator.next()} in the background. */
    private static CompletableFuture<Long> nextAsync(IdAllocator allocator) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return allocator.next();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aReservationWhoseReplyIsLostIsUsedOnlyWhenItsWriteIsProvedAndNeverReusedOtherwise(BatonClient other) throws Exception {
        String path = "/ids/lost";
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1)); BatonClient client = throughProxy(proxy)) {
            IdAllocator mine = IdAllocator.builder(client, path).strictlyMonotonic().build();
            IdAllocator theirs = IdAllocator.builder(other, path).strictlyMonotonic().build();
            assertThat(mine.next()).isEqualTo(1);

            // 1. the write lands, its reply is lost, nobody writes meanwhile: the retry proves it (its token) and uses it
            int version = other.checkExists().forPath(path).getVersion();
            proxy.pauseReplies();
            CompletableFuture<Long> proved = nextAsync(mine);
            await().atMost(WAIT).until(() -> other.checkExists().forPath(path).getVersion() == version + 1);
            proxy.cut();
            proxy.heal();
            assertThat(proved.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("its own write, proved by its token").isEqualTo(2);

            // 2. the write lands, its reply is lost, and someone writes after it before the retry can look:
            //    the retry cannot prove the write was its own, so the block (id 3) is given up, never used
            int before = other.checkExists().forPath(path).getVersion();
            proxy.pauseReplies();
            CompletableFuture<Long> unproved = nextAsync(mine);
            await().atMost(WAIT).until(() -> other.checkExists().forPath(path).getVersion() == before + 1);
            assertThat(theirs.next()).as("the other allocator reserves after the landed write").isEqualTo(4);
            proxy.cut();
            proxy.heal();
            assertThat(unproved.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("a fresh reservation after the other's").isEqualTo(5);

            // 3. the write never leaves (held with the connection), someone else takes the next id, and the retry
            //    finds a bad version: the allocator must not take that block, which is someone else's
            proxy.pause();
            CompletableFuture<Long> blocked = nextAsync(mine);
            assertThat(theirs.next()).isEqualTo(6);
            proxy.cut();
            proxy.heal();
            assertThat(blocked.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("not 6, which the other allocator holds").isEqualTo(7);
        }
        Set<Long> seen = new HashSet<>();
        for (long id : IdAllocator.builder(other, path).blockSize(3).build().next(3)) {
            assertThat(seen.add(id)).isTrue();
            assertThat(id).as("after everything handed out before").isGreaterThan(7);
        }
    }
}

package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.FullPool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NotifierTest {
    /** Never started: it only answers whether it is closed, and times the retries of a refused hand-off. */
    private final BatonClient client = BatonClient.builder().connectString("127.0.0.1:1").build();

    @AfterEach
    void closeClient() {
        client.close();
    }

    @Test
    void callsRunInQueueOrderOneAtATimeAndOnlyAfterFlush() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Notifier notifier = new Notifier(pool, client, "test");
            List<Integer> seen = new CopyOnWriteArrayList<>();
            AtomicBoolean busy = new AtomicBoolean();
            for (int i = 0; i < 200; i++) {
                int n = i;
                notifier.add(() -> {
                    assertThat(busy.compareAndSet(false, true)).as("one call at a time").isTrue();
                    seen.add(n);
                    busy.set(false);
                });
            }
            assertThat(seen).as("add() runs nothing").isEmpty();
            notifier.flush();
            notifier.barrier().get(10, TimeUnit.SECONDS);
            assertThat(seen).hasSize(200).isSorted();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aThrowingCallDoesNotStopLaterOnesAndDeliveryIsRecognisable() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Notifier notifier = new Notifier(pool, client, "test");
            List<Boolean> delivering = new CopyOnWriteArrayList<>();
            notifier.add(() -> {
                throw new IllegalStateException("listener bug (expected in this test)");
            });
            notifier.add(() -> delivering.add(notifier.isDelivering()));
            notifier.barrier().get(10, TimeUnit.SECONDS);
            assertThat(delivering).containsExactly(true);
            assertThat(notifier.isDelivering()).isFalse();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aShutDownExecutorStillDelivers() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pool.shutdown();
        Notifier notifier = new Notifier(pool, client, "test");
        AtomicBoolean ran = new AtomicBoolean();
        notifier.add(() -> ran.set(true));
        notifier.flush();
        assertThat(ran).isTrue();
    }

    /**
     * A full pool of the caller's refuses the calls: they wait and run later, in order, on that pool, with no
     * further flush (before, they ran at once on the flushing thread, which may be the client's own).
     */
    @Test
    void callsAFullPoolRefusedRunLaterOnItInOrderWithoutAnotherFlush() {
        try (FullPool full = new FullPool("full-listeners")) {
            Notifier notifier = new Notifier(full, client, "test");
            List<String> ran = new CopyOnWriteArrayList<>();
            full.refuse(true);
            for (int i = 1; i <= 3; i++) {
                int n = i;
                notifier.add(() -> ran.add(n + " on " + Thread.currentThread().getName()));
                notifier.flush();
            }
            assertThat(full.refused()).isEqualTo(3);
            assertThat(ran).as("nothing runs while the pool refuses").isEmpty();

            full.refuse(false);
            await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 3);
            assertThat(ran).containsExactly("1 on full-listeners", "2 on full-listeners", "3 on full-listeners");
        }
    }
}

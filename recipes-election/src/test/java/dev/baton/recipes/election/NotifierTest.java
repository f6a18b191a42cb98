package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class NotifierTest {
    @Test
    void callsRunInQueueOrderOneAtATimeAndOnlyAfterFlush() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Notifier notifier = new Notifier(pool, "test");
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
            Notifier notifier = new Notifier(pool, "test");
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
        Notifier notifier = new Notifier(pool, "test");
        AtomicBoolean ran = new AtomicBoolean();
        notifier.add(() -> ran.set(true));
        notifier.flush();
        assertThat(ran).isTrue();
    }
}

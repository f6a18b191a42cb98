package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The one drain loop: order, one claimer at a time, a throwing call stops nothing, a refusing executor loses nothing. */
class SerialQueueTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Never started: it only answers whether it is closed, and times the retries of a refused hand-off. */
    private final BatonClient client = BatonClient.builder().connectString("127.0.0.1:1").build();
    private final ExecutorService pool = Executors.newSingleThreadExecutor();

    @AfterEach
    void close() {
        client.close();
        pool.shutdownNow();
    }

    /** A bounded pool that is full while {@code refusing} is set: it refuses every task then. */
    static final class FullPool implements Executor {
        final Executor inner;
        volatile boolean refusing = true;
        final AtomicInteger refused = new AtomicInteger();

        FullPool(Executor inner) {
            this.inner = inner;
        }

        @Override
        public void execute(Runnable task) {
            if (refusing) {
                refused.incrementAndGet();
                throw new RejectedExecutionException("the pool is full (refused on purpose by the test)");
            }
            inner.execute(task);
        }
    }

    @Test
    void callsAFullExecutorRefusedRunOnceItTakesWorkInOrderWithNoFurtherCall() {
        SerialQueue queue = new SerialQueue("test");
        FullPool full = new FullPool(pool);
        List<Integer> ran = new CopyOnWriteArrayList<>();
        List<SerialQueue> givenUp = new CopyOnWriteArrayList<>();
        for (int i = 1; i <= 3; i++) {
            int n = i;
            queue.add(() -> ran.add(n));
            queue.runOn(full, client, givenUp::add);
        }
        assertThat(full.refused).as("each call handed the drain over again").hasValue(3);
        assertThat(ran).as("nothing ran on the full pool").isEmpty();
        assertThat(queue.isIdle()).as("the calls wait").isFalse();
        // at least one timed retry is refused too
        await().atMost(WAIT).until(() -> full.refused.get() > 3);

        full.refusing = false; // and nothing calls runOn again: the timer must hand the calls over
        await().atMost(WAIT).until(() -> ran.size() == 3);
        assertThat(ran).containsExactly(1, 2, 3);
        assertThat(givenUp).as("an open client's queue is never given up").isEmpty();
        await().atMost(WAIT).until(queue::isIdle);
    }

    @Test
    void aCallAfterTheRefusalsRunsAfterTheRefusedOnes() {
        SerialQueue queue = new SerialQueue("test");
        FullPool full = new FullPool(pool);
        List<Integer> ran = new CopyOnWriteArrayList<>();
        queue.add(() -> ran.add(1));
        queue.runOn(full, client, SerialQueue::abandon);
        queue.add(() -> ran.add(2));
        queue.runOn(full, client, SerialQueue::abandon);

        full.refusing = false;
        queue.add(() -> ran.add(3));
        queue.runOn(full, client, SerialQueue::abandon);

        await().atMost(WAIT).until(() -> ran.size() == 3);
        assertThat(ran).containsExactly(1, 2, 3);
    }

    @Test
    void onceTheClientIsClosedARefusedQueueIsHandedBackStillClaimed() {
        SerialQueue queue = new SerialQueue("test");
        FullPool full = new FullPool(pool);
        AtomicReference<SerialQueue> givenUp = new AtomicReference<>();
        queue.add(() -> { });
        client.close();

        queue.runOn(full, client, givenUp::set);

        assertThat(givenUp).as("the claimed queue, for the caller to drain or drop").hasValue(queue);
        assertThat(queue.claim()).as("still claimed by the caller").isFalse();
        queue.abandon();
        assertThat(queue.isIdle()).isTrue();
    }

    @Test
    void aShutDownExecutorIsRefusedForGoodWhileTheClientIsOpen() {
        SerialQueue queue = new SerialQueue("test");
        List<String> ran = new ArrayList<>();
        queue.add(() -> ran.add("here"));
        pool.shutdown();

        queue.runOn(pool, client, SerialQueue::drain);

        assertThat(ran).as("drained in place by the caller's choice").containsExactly("here");
        assertThat(queue.isIdle()).isTrue();
    }
    @Test
    void callsRunInOrderAndAThrowingOneDoesNotStopTheNext() {
        SerialQueue queue = new SerialQueue("test");
        List<Integer> ran = new ArrayList<>();
        queue.add(() -> ran.add(1));
        queue.add(() -> {
            throw new IllegalStateException("a listener's bug");
        });
        queue.add(() -> ran.add(3));

        assertThat(queue.claim()).isTrue();
        assertThat(queue.claim()).as("one drain at a time").isFalse();
        queue.drain();

        assertThat(ran).containsExactly(1, 3);
        assertThat(queue.isIdle()).isTrue();
        assertThat(queue.claim()).as("nothing queued: nothing to claim").isFalse();
    }

    @Test
    void aCallQueuedDuringTheDrainRunsInThatDrainOnItsThread() {
        SerialQueue queue = new SerialQueue("test");
        List<String> ran = new ArrayList<>();
        queue.add(() -> {
            assertThat(queue.isDraining()).isTrue();
            queue.add(() -> ran.add("later"));
            assertThat(queue.claim()).as("the running drain takes it").isFalse();
            ran.add("first");
        });
        assertThat(queue.claim()).isTrue();
        queue.drain();

        assertThat(ran).containsExactly("first", "later");
        assertThat(queue.isDraining()).isFalse();
    }

    @Test
    void anAbandonedDrainDropsTheQueueAndReleasesTheClaim() {
        SerialQueue queue = new SerialQueue("test");
        List<String> ran = new ArrayList<>();
        queue.add(() -> ran.add("dropped"));
        assertThat(queue.claim()).isTrue();

        queue.abandon();

        assertThat(queue.isIdle()).isTrue();
        queue.add(() -> ran.add("next"));
        assertThat(queue.claim()).isTrue();
        queue.drain();
        assertThat(ran).containsExactly("next");
    }
}

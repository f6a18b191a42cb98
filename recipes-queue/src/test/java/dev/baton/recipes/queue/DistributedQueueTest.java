package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.InvalidPathException;
import dev.baton.framework.DataTooLargeException;
import dev.baton.test.ConnectString;
import dev.baton.test.CountingClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

@EnsembleTest
class DistributedQueueTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static String path(TestInfo info) {
        return "/dq/" + info.getTestMethod().orElseThrow().getName();
    }

    @Test
    void startingOnAClientThatWasNeverStartedFailsAtOnceAndWorksOnceItIs(BatonClient producer, @ConnectString String connect,
                                                                         TestInfo info) throws Exception {
        // the newcomer's slip: build(), then the queue, and client.start() forgotten. Until 2026-11-28
        // start() returned, the consumer thread waited for a connection that never came, and nothing
        // was ever consumed.
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (BatonClient unstarted = BatonClient.builder().connectString(connect).build();
             DistributedQueue<String> queue = QueueBuilder.builder(unstarted, seen::add, Strings.UTF8, path(info)).buildQueue();
             DistributedQueue<String> put = QueueBuilder.builder(producer, null, Strings.UTF8, path(info)).buildQueue()) {
            assertThatThrownBy(queue::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the queue " + path(info) + ": the client is not started; call start() first");
            assertThat(queue.state()).isEqualTo(QueueState.LATENT);

            put.start();
            put.put("first");
            unstarted.start();
            queue.start();
            await().atMost(WAIT).until(() -> seen.contains("first"));
            assertThat(seen).as("the same queue consumes once its client is started").containsExactly("first");
        }
    }

    @Test
    void plainQueueDeliversEveryItemOnceInPutOrder(BatonClient client, TestInfo info) throws Exception {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (DistributedQueue<String> queue = QueueBuilder.builder(client, seen::add, Strings.UTF8, path(info)).buildQueue()) {
            queue.start();
            for (int i = 0; i < 20; i++) {
                queue.put("item-" + i);
            }
            queue.putMulti(IntStream.range(20, 50).mapToObj(i -> "item-" + i).toList());
            await().atMost(WAIT).until(() -> seen.size() >= 50);
            assertThat(seen).containsExactlyElementsOf(IntStream.range(0, 50).mapToObj(i -> "item-" + i).toList());
            assertThat(queue.count()).isZero();
        }
    }

    @Test
    void plainQueueWithATakeBatchDeliversEveryItemOnceInPutOrderWithOneWritePerBatch(BatonClient client, TestInfo info)
        throws Exception {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        String path = path(info);
        try (DistributedQueue<String> producer = QueueBuilder.builder(client, null, Strings.UTF8, path).buildQueue()) {
            producer.start();
            producer.putMulti(IntStream.range(0, 120).mapToObj(i -> "item-" + i).toList());
        }
        try (DistributedQueue<String> queue = QueueBuilder.builder(client, seen::add, Strings.UTF8, path).takeBatch(50).buildQueue()) {
            queue.start();
            await().atMost(WAIT).until(() -> seen.size() >= 120);
            assertThat(seen).containsExactlyElementsOf(IntStream.range(0, 120).mapToObj(i -> "item-" + i).toList());
            assertThat(queue.count()).isZero();
            // one receipt serves the consumer; its version counts its transactions: 120 items in batches of at most 50
            List<String> receipts = client.getChildren().forPath(path + "/receipts");
            int writes = 0;
            for (String r : receipts) {
                String note = new String(client.getData().forPath(path + "/receipts/" + r), java.nio.charset.StandardCharsets.UTF_8);
                if (!note.equals("put")) {
                    writes += client.checkExists().forPath(path + "/receipts/" + r).getVersion();
                }
            }
            assertThat(writes).as("take transactions for 120 items in batches of 50").isEqualTo(3);
        }
    }

    @Test
    void twoPlainConsumersWithTakeBatchesShareTheItemsExactlyOnce(BatonClient producerClient, BatonClient one, BatonClient two,
                                                                  TestInfo info) throws Exception {
        Map<String, Integer> times = new ConcurrentHashMap<>();
        QueueConsumer<String> count = item -> times.merge(item, 1, Integer::sum);
        String path = path(info);
        try (DistributedQueue<String> producer = QueueBuilder.builder(producerClient, null, Strings.UTF8, path).buildQueue();
             DistributedQueue<String> first = QueueBuilder.builder(one, count, Strings.UTF8, path).takeBatch(16).buildQueue();
             DistributedQueue<String> second = QueueBuilder.builder(two, count, Strings.UTF8, path).takeBatch(16).buildQueue()) {
            producer.start();
            first.start();
            second.start();
            for (int i = 0; i < 400; i += 20) {
                int from = i;
                producer.putMulti(IntStream.range(from, from + 20).mapToObj(k -> "item-" + k).toList());
            }
            await().atMost(WAIT).until(() -> times.size() >= 400 && producer.count() == 0);
            assertThat(times).hasSize(400);
            assertThat(times.values()).as("no item delivered twice").allMatch(n -> n == 1);
        }
    }

    @Test
    void aTakeBatchIsRefusedInGuaranteedModeAndOutsideItsRange(BatonClient client, TestInfo info) {
        QueueBuilder<String> builder = QueueBuilder.builder(client, s -> { }, Strings.UTF8, path(info));
        assertThatThrownBy(() -> builder.takeBatch(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
        assertThatThrownBy(() -> builder.takeBatch(QueueBuilder.MAX_TAKE_BATCH + 1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("1 to 1000");
        QueueBuilder<String> guaranteed = builder.lockPath(path(info) + "-locks").takeBatch(10);
        assertThatThrownBy(guaranteed::buildQueue).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("plain mode only").hasMessageContaining(path(info) + "-locks");
    }

    @Test
    void guaranteedQueueRemovesAnItemOnlyAfterTheConsumerReturns(BatonClient client, TestInfo info) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        QueueConsumer<String> consumer = item -> {
            started.countDown();
            finish.await();
            done.add(item);
        };
        String lockPath = path(info) + "-locks";
        try (DistributedQueue<String> queue = QueueBuilder.builder(client, consumer, Strings.UTF8, path(info))
            .lockPath(lockPath).buildQueue()) {
            queue.start();
            queue.put("precious");
            assertThat(started.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(queue.count()).as("item stays while its consumer runs").isEqualTo(1);
            assertThat(client.getChildren().forPath(lockPath)).as("and is locked").hasSize(1);
            finish.countDown();
            await().atMost(WAIT).until(() -> done.size() == 1 && queue.count() == 0);
            await().atMost(WAIT).until(() -> client.checkExists().forPath(lockPath) == null
                || client.getChildren().forPath(lockPath).isEmpty());
        }
    }

    @Test
    void consumerThatKeepsThrowingEndsInDeadLettersWithTheError(BatonClient client, TestInfo info) throws Exception {
        Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        QueueConsumer<String> consumer = item -> {
            attempts.computeIfAbsent(item, k -> new AtomicInteger()).incrementAndGet();
            if (item.startsWith("bad")) {
                throw new IllegalStateException("cannot handle " + item);
            }
            if (item.equals("flaky") && attempts.get(item).get() == 1) {
                throw new IllegalStateException("first time unlucky");
            }
            done.add(item);
        };
        for (boolean guaranteed : new boolean[] {false, true}) {
            String path = path(info) + (guaranteed ? "-g" : "-p");
            attempts.clear();
            done.clear();
            QueueBuilder<String> builder = QueueBuilder.builder(client, consumer, Strings.UTF8, path)
                .maxDeliveryAttempts(3).retryBackoff(Duration.ZERO);
            if (guaranteed) {
                builder.lockPath(path + "-locks");
            }
            try (DistributedQueue<String> queue = builder.buildQueue()) {
                queue.start();
                queue.putMulti(List.of("good", "bad-1", "flaky", "bad-2"));
                await().atMost(WAIT).until(() -> queue.deadLetters().size() == 2 && done.size() == 2);
                assertThat(done).containsExactly("good", "flaky");
                assertThat(attempts.get("bad-1").get()).isEqualTo(3);
                List<DeadLetter> dead = queue.deadLetters();
                assertThat(dead).extracting(d -> d.item(Strings.UTF8)).containsExactly("bad-1", "bad-2");
                assertThat(dead.get(0).error()).contains("cannot handle bad-1").contains("3 time");
                assertThat(dead.get(0).itemPath()).startsWith(path + "/");
                await().atMost(WAIT).until(() -> queue.count() == 0);
            }
        }
    }

    @Test
    void itemThatCannotBeDeserializedBecomesADeadLetter(BatonClient client, TestInfo info) throws Exception {
        QueueSerializer<String> picky = new QueueSerializer<>() {
            @Override
            public byte[] serialize(String item) {
                return Strings.UTF8.serialize(item);
            }

            @Override
            public String deserialize(byte[] bytes) {
                String s = Strings.UTF8.deserialize(bytes);
                if (s.equals("garbage")) {
                    throw new IllegalArgumentException("not a job: " + s);
                }
                return s;
            }
        };
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        try (DistributedQueue<String> queue = QueueBuilder.builder(client, done::add, picky, path(info)).buildQueue()) {
            queue.start();
            queue.putMulti(List.of("garbage", "fine"));
            await().atMost(WAIT).until(() -> done.size() == 1 && queue.deadLetters().size() == 1);
            assertThat(queue.deadLetters().get(0).error()).contains("deserialize failed").contains("not a job");
            assertThat(queue.deadLetters().get(0).item(Strings.UTF8)).isEqualTo("garbage");
        }
    }

    @Test
    void priorityQueueDeliversLowestPriorityFirst(BatonClient client, TestInfo info) throws Exception {
        String path = path(info);
        try (DistributedPriorityQueue<String> producer = QueueBuilder.builder(client, null, Strings.UTF8, path).buildPriorityQueue()) {
            producer.start();
            producer.put("p5", 5);
            producer.put("p-3", -3);
            producer.put("p100", 100);
            producer.put("p0", 0);
            producer.put("p5-second", 5);
            producer.putMulti(List.of("pmin", "pmin-second"), Integer.MIN_VALUE);
            producer.put("pmax", Integer.MAX_VALUE);
        }
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (DistributedPriorityQueue<String> consumer = QueueBuilder.builder(client, seen::add, Strings.UTF8, path).buildPriorityQueue()) {
            consumer.start();
            await().atMost(WAIT).until(() -> seen.size() == 8);
        }
        assertThat(seen).containsExactly("pmin", "pmin-second", "p-3", "p0", "p5", "p5-second", "p100", "pmax");
    }

    @Test
    void delayQueueNeverDeliversEarlyAndDeliversEarliestFirst(BatonClient client, TestInfo info) throws Exception {
        Map<String, Long> deliveredAt = new ConcurrentHashMap<>();
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        QueueConsumer<String> consumer = item -> {
            deliveredAt.put(item, System.currentTimeMillis());
            order.add(item);
        };
        try (DistributedDelayQueue<String> queue = QueueBuilder.builder(client, consumer, Strings.UTF8, path(info)).buildDelayQueue()) {
            queue.start();
            long now = System.currentTimeMillis();
            Map<String, Long> due = Map.of("late", now + 900, "middle", now + 500, "soon", now + 200, "overdue", now - 1_000);
            for (var e : due.entrySet()) {
                queue.put(e.getKey(), e.getValue());
            }
            await().atMost(WAIT).until(() -> order.size() == 4);
            assertThat(order).containsExactly("overdue", "soon", "middle", "late");
            due.forEach((item, at) -> assertThat(deliveredAt.get(item)).as(item + " not before its time").isGreaterThanOrEqualTo(at));
        }
    }

    @Test
    void idQueueRemovesItemsByIdBeforeTheyAreConsumed(BatonClient client, TestInfo info) throws Exception {
        String path = path(info);
        try (DistributedIdQueue<String> producer = QueueBuilder.builder(client, null, Strings.UTF8, path).buildIdQueue()) {
            producer.start();
            producer.put("a1", "a");
            producer.put("b1", "b");
            producer.put("a2", "a/x|y");
            producer.put("b2", "b");
            producer.put("c1", "c");
            assertThat(producer.remove("b")).isEqualTo(2);
            assertThat(producer.remove("nobody")).isZero();
            assertThat(producer.count()).isEqualTo(3);
        }
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (DistributedIdQueue<String> consumer = QueueBuilder.builder(client, seen::add, Strings.UTF8, path).buildIdQueue()) {
            consumer.start();
            await().atMost(WAIT).until(() -> seen.size() == 3);
        }
        assertThat(seen).containsExactly("a1", "a2", "c1");
    }

    @Test
    void boundedQueuePutWaitsForRoomAndGivesUpAfterItsTimeout(BatonClient client, TestInfo info) throws Exception {
        String path = path(info);
        try (DistributedQueue<String> producer = QueueBuilder.builder(client, null, Strings.UTF8, path)
            .maxItems(3).putTimeout(Duration.ofMillis(100)).buildQueue()) {
            producer.start();
            producer.putMulti(List.of("1", "2", "3"));
            assertThat(producer.put("4", Duration.ofMillis(50))).isFalse();
            assertThatThrownBy(() -> producer.put("4")).isInstanceOf(QueueFullException.class).hasMessageContaining("maxItems 3");
            assertThatThrownBy(() -> producer.putMulti(List.of("a", "b", "c", "d"))).isInstanceOf(IllegalArgumentException.class);
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            try (DistributedQueue<String> consumer = QueueBuilder.builder(client, seen::add, Strings.UTF8, path).buildQueue()) {
                consumer.start();
                assertThat(producer.put("4", WAIT)).isTrue();
                await().atMost(WAIT).until(() -> seen.size() == 4);
            }
        }
    }

    @Test
    void aPutBlockedOnAFullQueueWaitsOnAWatchNotAPollAndProceedsWhenAnItemIsTaken(BatonClient client, TestInfo info)
        throws Exception {
        String path = path(info);
        CountingClient counting = CountingClient.wrap(client);
        ExecutorService putter = Executors.newSingleThreadExecutor();
        try (DistributedQueue<String> producer = QueueBuilder.builder(counting.client(), null, Strings.UTF8, path)
            .maxItems(2).buildQueue()) {
            producer.start();
            producer.putMulti(List.of("1", "2"));
            long before = counting.reads(CountingClient.Read.GET_CHILDREN);
            Future<Boolean> put = putter.submit(() -> producer.put("3", WAIT));
            await().atMost(WAIT).until(() -> counting.reads(CountingClient.Read.GET_CHILDREN) > before);
            long counted = counting.reads(CountingClient.Read.GET_CHILDREN);
            // Nothing is taken for two seconds: a waiting put must not count the queue again (a poll would, every
            // few hundred milliseconds); one late listing of its first look is tolerated.
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> !put.isDone() && counting.reads(CountingClient.Read.GET_CHILDREN) <= counted + 1);
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            try (DistributedQueue<String> consumer = QueueBuilder.builder(client, seen::add, Strings.UTF8, path).buildQueue()) {
                consumer.start();
                assertThat(put.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the put, once an item was taken").isTrue();
                await().atMost(WAIT).until(() -> seen.size() == 3);
            }
        } finally {
            putter.shutdownNow();
        }
    }

    @Test
    void closingTheQueueFailsAPutWaitingForRoomAtOnceAndPutsNothing(BatonClient client, TestInfo info) throws Exception {
        String path = path(info);
        CountingClient counting = CountingClient.wrap(client);
        ExecutorService putter = Executors.newSingleThreadExecutor();
        try {
            DistributedQueue<String> producer = QueueBuilder.builder(counting.client(), null, Strings.UTF8, path)
                .maxItems(1).putTimeout(Duration.ofMinutes(5)).buildQueue();
            producer.start();
            producer.put("1");
            long before = counting.reads(CountingClient.Read.GET_CHILDREN);
            Future<?> put = putter.submit(() -> {
                producer.put("2");
                return null;
            });
            await().atMost(WAIT).until(() -> counting.reads(CountingClient.Read.GET_CHILDREN) > before); // it counted: full
            producer.close();
            // a shutdown must not hang for the put timeout, nor end in a put into a closed queue
            assertThatThrownBy(() -> put.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .as("the waiting put, once the queue was closed")
                .hasCauseInstanceOf(IllegalStateException.class).hasMessageContaining("the queue is closed");
            assertThat(client.getChildren().forPath(path + "/shard-0000000000")).hasSize(1);
        } finally {
            putter.shutdownNow();
        }
    }

    @Test
    void closeInterruptsADeliveryThatOutlivesTheCloseTimeoutAfterThatTimeoutAndGivesItsItemBack(BatonClient client, TestInfo info)
        throws Exception {
        String path = path(info);
        Duration closeTimeout = Duration.ofSeconds(2);
        CountDownLatch consuming = new CountDownLatch(1);
        AtomicLong interruptedAt = new AtomicLong();
        DistributedQueue<String> queue = QueueBuilder.<String>builder(client, item -> {
                consuming.countDown();
                try {
                    new CountDownLatch(1).await(); // a consumer that would run for ever
                } finally {
                    interruptedAt.set(System.nanoTime());
                }
            }, Strings.UTF8, path)
            .lockPath(path + "-locks").closeTimeout(closeTimeout).buildQueue();
        queue.start();
        queue.put("long job");
        assertThat(consuming.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        long closing = System.nanoTime();
        queue.close();
        // The close timeout is what a deployment budgets for shutting down (a grace period): the delivery gets
        // that long, not a multiple of it. Another item waiting (here, this one again: it is still in the queue)
        // must not make close() wait for a free consumer slot on top of it.
        assertThat(Duration.ofNanos(interruptedAt.get() - closing)).as("when close() interrupted the delivery")
            .isPositive().isLessThan(closeTimeout.plusMillis(1_500));
        assertThat(client.getChildren().forPath(path + "-locks")).as("its lock, given back").isEmpty();
        assertThat(client.getChildren().forPath(path + "/shard-0000000000")).as("the item, still waiting").hasSize(1);
    }

    @Test
    void anItemTooLargeToPutLeavesNoNodeBehindHoweverOftenItIsTried(BatonClient client, TestInfo info) throws Exception {
        String path = path(info);
        try (DistributedQueue<String> queue = QueueBuilder.builder(client, null, Strings.UTF8, path).buildQueue()) {
            queue.start();
            queue.put("fits");
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(() -> queue.put("x".repeat(2 * 1024 * 1024))).isInstanceOf(DataTooLargeException.class)
                    .hasMessageContaining("the server accepts at most");
            }
            assertThat(queue.count()).isEqualTo(1);
            // a producer that keeps meeting oversized items must not pile up an ephemeral receipt node per refusal
            assertThat(client.getChildren().forPath(path + "/receipts")).as("receipt nodes").hasSize(1);
        }
    }

    @Test
    void anItemNearTheSizeLimitStillBecomesADeadLetterWhenItsConsumerKeepsFailing(BatonClient client, TestInfo info)
        throws Exception {
        String error = "refused: " + "the downstream service said no. ".repeat(40);
        for (String mode : List.of("plain", "guaranteed")) {
            String path = path(info) + "-" + mode;
            String item;
            try (DistributedQueue<String> producer = QueueBuilder.builder(client, null, Strings.UTF8, path).buildQueue()) {
                producer.start();
                int tooMany = 2 * 1024 * 1024;
                DataTooLargeException refused = org.junit.jupiter.api.Assertions.assertThrows(DataTooLargeException.class,
                    () -> producer.put("x".repeat(tooMany)));
                item = "x".repeat(tooMany - (refused.size() - refused.limit()) - 1024); // 1 KB below the largest a put accepts
                producer.put(item);
            }
            QueueBuilder<String> builder = QueueBuilder.<String>builder(client, job -> {
                    throw new IllegalStateException(error);
                }, Strings.UTF8, path).retryBackoff(Duration.ZERO);
            if (mode.equals("guaranteed")) {
                builder.lockPath(path + "-locks");
            }
            try (DistributedQueue<String> queue = builder.buildQueue()) {
                queue.start();
                // the item fitted its put; with the error and its path beside it, the dead letter did not fit one
                // request: it was lost (plain mode) or stayed locked by the live consumer for ever (guaranteed mode)
                await(mode).atMost(WAIT).until(() -> queue.deadLetters().size() == 1 && queue.count() == 0);
                DeadLetter dead = queue.deadLetters().get(0);
                assertThat(dead.item(Strings.UTF8)).as(mode).isEqualTo(item);
                assertThat(dead.error()).as(mode).contains("IllegalStateException: refused: the downstream service said no.");
            }
        }
    }

    @Test
    void badInputFailsAtOnceWithAMessage(BatonClient client, TestInfo info) throws Exception {
        QueueSerializer<String> broken = new QueueSerializer<>() {
            @Override
            public byte[] serialize(String item) {
                throw new UnsupportedOperationException("no bytes for " + item);
            }

            @Override
            public String deserialize(byte[] bytes) {
                return "";
            }
        };
        String path = path(info);
        try (DistributedQueue<String> queue = QueueBuilder.builder(client, null, Strings.UTF8, path).buildQueue();
             DistributedQueue<String> brokenQueue = QueueBuilder.builder(client, null, broken, path).buildQueue()) {
            assertThatThrownBy(() -> queue.put("early")).isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
            queue.start();
            brokenQueue.start();
            assertThatThrownBy(() -> queue.put(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("null");
            assertThatThrownBy(() -> queue.putMulti(java.util.Arrays.asList("a", null)))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("item 1");
            assertThatThrownBy(() -> queue.putMulti(List.of())).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> queue.put("x", Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxWait must not be negative, was PT-1S");
            assertThatThrownBy(() -> queue.put("x".repeat(2 * 1024 * 1024))).isInstanceOf(DataTooLargeException.class);
            assertThatThrownBy(() -> brokenQueue.put("x")).isInstanceOf(QueueSerializationException.class)
                .hasMessageContaining("no bytes for x");
            assertThatThrownBy(() -> queue.start()).isInstanceOf(IllegalStateException.class);
            assertThat(queue.count()).as("nothing was put by the failed calls").isZero();
        }
        assertThatThrownBy(() -> QueueBuilder.builder(client, null, Strings.UTF8, "relative")).isInstanceOf(InvalidPathException.class)
            .hasMessageContaining("relative");
        assertThatThrownBy(() -> QueueBuilder.builder(client, null, Strings.UTF8, path).maxItems(0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
        assertThatThrownBy(() -> QueueBuilder.builder(client, null, Strings.UTF8, path).lockPath(path + "/locks"))
            .isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> QueueBuilder.builder(client, null, Strings.UTF8, path).concurrency(0))
            .isInstanceOf(IllegalArgumentException.class);
        try (DistributedDelayQueue<String> delay = QueueBuilder.builder(client, null, Strings.UTF8, path + "-d").buildDelayQueue();
             DistributedIdQueue<String> ids = QueueBuilder.builder(client, null, Strings.UTF8, path + "-i").buildIdQueue()) {
            delay.start();
            ids.start();
            assertThatThrownBy(() -> delay.put("x", 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
            assertThatThrownBy(() -> ids.put("x", "")).isInstanceOf(IllegalArgumentException.class);
        }
    }
}

package dev.baton.recipes.queue;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InvalidPathException;
import dev.baton.framework.DataTooLargeException;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import java.util.NoSuchElementException;

@EnsembleTest
class SimpleDistributedQueueTest {

    private static String path(TestInfo info) {
        return "/simple/" + info.getTestMethod().orElseThrow().getName();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    @Test
    void itemsComeOutInTheOrderTheyWereOffered(BatonClient client, TestInfo info) throws Exception {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path(info));
        for (int i = 0; i < 20; i++) {
            queue.offer(bytes("item-" + i));
        }
        List<String> out = new ArrayList<>();
        for (byte[] item = queue.poll(); item != null; item = queue.poll()) {
            out.add(new String(item, UTF_8));
        }
        assertThat(out).hasSize(20);
        for (int i = 0; i < 20; i++) {
            assertThat(out.get(i)).isEqualTo("item-" + i);
        }
    }

    @Test
    void pollOnAnEmptyQueueReturnsNullAndPeekDoesNotRemove(BatonClient client, TestInfo info) throws Exception {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path(info));
        assertThat(queue.poll()).isNull();
        assertThat(queue.peek()).isNull();
        queue.offer(bytes("a"));
        assertThat(queue.peek()).asString(UTF_8).isEqualTo("a");
        assertThat(queue.peek()).asString(UTF_8).isEqualTo("a");
        assertThat(queue.poll()).asString(UTF_8).isEqualTo("a");
        assertThat(queue.poll()).isNull();
    }

    @Test
    void takeWaitsForAnItemOfferedByAnotherClient(BatonClient consumerClient, BatonClient producerClient, TestInfo info)
        throws Exception {
        SimpleDistributedQueue consumer = new SimpleDistributedQueue(consumerClient, path(info));
        SimpleDistributedQueue producer = new SimpleDistributedQueue(producerClient, path(info));
        CompletableFuture<byte[]> taken = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.take();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(consumer.poll(Duration.ofMillis(50))).isNull();
        producer.offer(bytes("late"));
        assertThat(taken.get(10, TimeUnit.SECONDS)).asString(UTF_8).isEqualTo("late");
    }

    @Test
    void pollWithTimeoutGivesUpWhenNothingArrives(BatonClient client, TestInfo info) throws Exception {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path(info));
        long start = System.nanoTime();
        assertThat(queue.poll(Duration.ofMillis(200))).isNull();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
    }

    @Test
    void itemsGoIntoShardsAndFlatItemsAreTakenToo(BatonClient client, TestInfo info) throws Exception {
        String path = path(info);
        new SimpleDistributedQueue(client, path).offer(bytes("sharded"));
        new SimpleDistributedQueue(client, path, QueueLayout.FLAT).offer(bytes("flat"));
        List<String> children = client.getChildren().forPath(path);
        assertThat(children).anyMatch(name -> name.startsWith(ItemNames.SHARD_PREFIX)).anyMatch(name -> name.startsWith("qn-"));
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path);
        assertThat(queue.poll()).asString(UTF_8).isEqualTo("flat");
        assertThat(queue.poll()).asString(UTF_8).isEqualTo("sharded");
        assertThat(queue.poll()).isNull();
    }

    @Test
    void shortLivedQueueObjectsOfOneClientShareTheirReceiptNodes(BatonClient client, TestInfo info) throws Exception {
        for (int i = 0; i < 20; i++) {
            new SimpleDistributedQueue(client, path(info)).offer(bytes("item-" + i));
        }
        assertThat(client.getChildren().forPath(path(info) + "/receipts")).hasSize(1);
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path(info));
        for (int i = 0; i < 20; i++) {
            assertThat(queue.poll()).asString(UTF_8).isEqualTo("item-" + i);
        }
    }

    @Test
    void badInputFailsAtOnce(BatonClient client, TestInfo info) {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path(info));
        assertThatThrownBy(() -> queue.offer(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("null");
        assertThatThrownBy(() -> queue.offer(new byte[2 * 1024 * 1024])).isInstanceOf(DataTooLargeException.class);
        assertThatThrownBy(() -> new SimpleDistributedQueue(client, "no-slash")).isInstanceOf(InvalidPathException.class)
            .hasMessageContaining("no-slash");
        assertThatThrownBy(() -> queue.poll(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.pollMulti(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
        assertThatThrownBy(() -> queue.pollMulti(SimpleDistributedQueue.MAX_POLL_MULTI + 1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 1000");
        assertThatThrownBy(() -> queue.pollMulti(5, Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pollMultiTakesUpToMaxItemsFromTheHeadInOrderInOneWrite(BatonClient client, TestInfo info) throws Exception {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path(info));
        assertThat(queue.pollMulti(10)).isEmpty();
        for (int i = 0; i < 25; i++) {
            queue.offer(bytes("item-" + i));
        }
        String receipts = path(info) + "/receipts";
        String receipt = receipts + "/" + client.getChildren().forPath(receipts).get(0);
        int writesBefore = client.checkExists().forPath(receipt).getVersion();
        List<String> first = strings(queue.pollMulti(10));
        assertThat(first).containsExactlyElementsOf(range(0, 10));
        assertThat(client.checkExists().forPath(receipt).getVersion()).as("ten items, one receipt-guarded transaction")
            .isEqualTo(writesBefore + 1);
        assertThat(queue.poll()).asString(UTF_8).isEqualTo("item-10");
        assertThat(strings(queue.pollMulti(100))).as("fewer than max: what there is").containsExactlyElementsOf(range(11, 25));
        assertThat(queue.pollMulti(100)).isEmpty();
        assertThat(queue.size()).isZero();
    }

    @Test
    void aTimeoutTooLongToCountMeansNoDeadline(BatonClient client, TestInfo info) throws Exception {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path(info));
        Duration forever = java.time.temporal.ChronoUnit.FOREVER.getDuration();
        queue.offer(bytes("a"));
        assertThat(queue.poll(forever)).asString(UTF_8).isEqualTo("a");
        queue.offer(bytes("b"));
        assertThat(strings(queue.pollMulti(3, forever))).containsExactly("b");
    }

    @Test
    void pollMultiWithTimeoutWaitsForTheFirstItem(BatonClient consumerClient, BatonClient producerClient, TestInfo info)
        throws Exception {
        SimpleDistributedQueue consumer = new SimpleDistributedQueue(consumerClient, path(info));
        SimpleDistributedQueue producer = new SimpleDistributedQueue(producerClient, path(info));
        long start = System.nanoTime();
        assertThat(consumer.pollMulti(5, Duration.ofMillis(200))).isEmpty();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
        CompletableFuture<List<byte[]>> taken = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.pollMulti(5, Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        producer.offer(bytes("late"));
        assertThat(strings(taken.get(20, TimeUnit.SECONDS))).containsExactly("late");
    }

    @Test
    void concurrentPollMultiCallersShareTheItemsWithoutLossOrDuplicates(BatonClient a, BatonClient b, BatonClient c,
                                                                         TestInfo info) throws Exception {
        SimpleDistributedQueue producer = new SimpleDistributedQueue(a, path(info));
        for (int i = 0; i < 300; i++) {
            producer.offer(bytes("item-" + i));
        }
        List<CompletableFuture<List<String>>> takers = new ArrayList<>();
        for (BatonClient client : List.of(a, b, c)) {
            SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path(info));
            takers.add(CompletableFuture.supplyAsync(() -> {
                List<String> mine = new ArrayList<>();
                try {
                    for (List<byte[]> got = queue.pollMulti(7); !got.isEmpty(); got = queue.pollMulti(7)) {
                        assertThat(got).hasSizeLessThanOrEqualTo(7);
                        mine.addAll(strings(got));
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return mine;
            }));
        }
        List<String> all = new ArrayList<>();
        for (CompletableFuture<List<String>> taker : takers) {
            List<String> mine = taker.get(60, TimeUnit.SECONDS);
            assertThat(mine).as("one taker's items stay in queue order").isSortedAccordingTo(
                java.util.Comparator.comparingInt(s -> Integer.parseInt(s.substring("item-".length()))));
            all.addAll(mine);
        }
        assertThat(all).as("every item taken exactly once").hasSize(300).containsExactlyInAnyOrderElementsOf(range(0, 300));
    }

    private static List<String> strings(List<byte[]> items) {
        return items.stream().map(b -> new String(b, UTF_8)).toList();
    }

    private static List<String> range(int from, int to) {
        return java.util.stream.IntStream.range(from, to).mapToObj(i -> "item-" + i).toList();
    }

    @Test
    void curatorsElementAndRemoveThrowOnAnEmptyQueueWherePeekAndPollReturnNull(BatonClient client, TestInfo info)
        throws Exception {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path(info));
        assertThatThrownBy(queue::element).isInstanceOf(NoSuchElementException.class).hasMessageContaining("is empty");
        assertThatThrownBy(queue::remove).isInstanceOf(NoSuchElementException.class).hasMessageContaining("is empty");
        queue.offer("a".getBytes(UTF_8));
        queue.offer("b".getBytes(UTF_8));
        assertThat(new String(queue.element(), UTF_8)).isEqualTo("a");
        assertThat(new String(queue.remove(), UTF_8)).isEqualTo("a");
        assertThat(new String(queue.remove(), UTF_8)).isEqualTo("b");
        assertThat(queue.peek()).isNull();
    }
}

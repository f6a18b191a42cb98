package dev.baton.recipes.queue;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.framework.DataTooLargeException;
import dev.baton.recipes.queue.internal.ItemNames;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

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
        assertThatThrownBy(() -> new SimpleDistributedQueue(client, "no-slash")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("no-slash");
        assertThatThrownBy(() -> queue.poll(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}

package dev.baton.recipes.queue;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.queue.MultiItem;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Items put by Curator 5.9's queues are consumed by Baton's, and the other way round. */
@EnsembleTest
class CuratorInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @ConnectString
    String connectString;
    private CuratorFramework curator;

    @BeforeEach
    void startCurator() throws InterruptedException {
        curator = CuratorFrameworkFactory.newClient(connectString, 10_000, 10_000, new RetryOneTime(100));
        curator.start();
        assertThat(curator.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
    }

    @AfterEach
    void closeCurator() {
        curator.close();
    }

    private static final org.apache.curator.framework.recipes.queue.QueueSerializer<String> CURATOR_STRINGS =
        new org.apache.curator.framework.recipes.queue.QueueSerializer<>() {
            @Override
            public byte[] serialize(String item) {
                return item.getBytes(UTF_8);
            }

            @Override
            public String deserialize(byte[] bytes) {
                return new String(bytes, UTF_8);
            }
        };

    private static org.apache.curator.framework.recipes.queue.QueueConsumer<String> curatorConsumer(List<String> into) {
        return new org.apache.curator.framework.recipes.queue.QueueConsumer<>() {
            @Override
            public void consumeMessage(String message) {
                into.add(message);
            }

            @Override
            public void stateChanged(CuratorFramework client, ConnectionState newState) {
            }
        };
    }

    @Test
    void itemsPutByCuratorAreConsumedByBatonInOrderInBothModes(BatonClient client) throws Exception {
        for (boolean guaranteed : new boolean[] {false, true}) {
            String path = "/interop/curator-to-baton-" + guaranteed;
            var producer = org.apache.curator.framework.recipes.queue.QueueBuilder.builder(curator, null, CURATOR_STRINGS, path)
                .buildQueue();
            producer.start();
            producer.put("one");
            producer.put("two");
            List<String> multi = List.of("three", "four");
            var it = multi.iterator();
            MultiItem<String> items = () -> it.hasNext() ? it.next() : null;
            producer.putMulti(items); // Curator puts both into one node
            producer.flushPuts(10, TimeUnit.SECONDS);
            producer.close();

            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            QueueBuilder<String> builder = QueueBuilder.builder(client, seen::add, Strings.UTF8, path);
            if (guaranteed) {
                builder.lockPath(path + "-locks");
            }
            try (DistributedQueue<String> queue = builder.buildQueue()) {
                queue.start();
                await().atMost(WAIT).until(() -> seen.size() == 4);
                assertThat(seen).containsExactly("one", "two", "three", "four");
                await().atMost(WAIT).until(() -> queue.count() == 0);
            }
        }
    }

    @Test
    void itemsPutByBatonInTheFlatLayoutAreConsumedByCurator(BatonClient client) throws Exception {
        String path = "/interop/baton-to-curator";
        try (DistributedQueue<String> producer = QueueBuilder.builder(client, null, Strings.UTF8, path).layout(QueueLayout.FLAT)
            .buildQueue()) {
            producer.start();
            producer.put("a");
            producer.putMulti(List.of("b", "c"));
        }
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        var consumer = org.apache.curator.framework.recipes.queue.QueueBuilder.builder(curator, curatorConsumer(seen), CURATOR_STRINGS, path)
            .lockPath(path + "-locks").buildQueue();
        consumer.start();
        try {
            await().atMost(WAIT).until(() -> seen.size() == 3);
            assertThat(seen).containsExactly("a", "b", "c");
        } finally {
            consumer.close();
        }
    }

    @Test
    void priorityAndDelayNamesAreReadTheSameWayByBoth(BatonClient client) throws Exception {
        String path = "/interop/priority";
        var producer = org.apache.curator.framework.recipes.queue.QueueBuilder.builder(curator, null, CURATOR_STRINGS, path)
            .buildPriorityQueue(0);
        producer.start();
        producer.put("later", 10);
        producer.put("first", -5);
        producer.put("middle", 3);
        producer.flushPuts(10, TimeUnit.SECONDS);
        producer.close();
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (DistributedPriorityQueue<String> queue = QueueBuilder.builder(client, seen::add, Strings.UTF8, path).buildPriorityQueue()) {
            queue.start();
            await().atMost(WAIT).until(() -> seen.size() == 3);
        }
        assertThat(seen).containsExactly("first", "middle", "later");

        String delayPath = "/interop/delay";
        try (DistributedDelayQueue<String> batonProducer = QueueBuilder.builder(client, null, Strings.UTF8, delayPath)
            .layout(QueueLayout.FLAT).buildDelayQueue()) {
            batonProducer.start();
            batonProducer.put("due", System.currentTimeMillis() - 1);
        }
        List<String> curatorSeen = Collections.synchronizedList(new ArrayList<>());
        var curatorDelay = org.apache.curator.framework.recipes.queue.QueueBuilder.builder(curator, curatorConsumer(curatorSeen),
            CURATOR_STRINGS, delayPath).buildDelayQueue();
        curatorDelay.start();
        try {
            await().atMost(WAIT).until(() -> curatorSeen.size() == 1);
            assertThat(curatorSeen).containsExactly("due");
        } finally {
            curatorDelay.close();
        }
    }

    @Test
    void simpleQueuesShareItemsBothWays(BatonClient client) throws Exception {
        String path = "/interop/simple";
        var curatorQueue = new org.apache.curator.framework.recipes.queue.SimpleDistributedQueue(curator, path);
        curatorQueue.offer("from curator".getBytes(UTF_8));
        SimpleDistributedQueue batonQueue = new SimpleDistributedQueue(client, path, QueueLayout.FLAT);
        assertThat(batonQueue.poll()).asString(UTF_8).isEqualTo("from curator");
        batonQueue.offer("from baton".getBytes(UTF_8));
        assertThat(curatorQueue.poll(5, TimeUnit.SECONDS)).asString(UTF_8).isEqualTo("from baton");
        assertThat(batonQueue.poll()).isNull();
    }
}

package dev.baton.recipes.queue.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.queue.DeadLetter;
import dev.baton.recipes.queue.DistributedDelayQueue;
import dev.baton.recipes.queue.DistributedQueue;
import dev.baton.recipes.queue.QueueBuilder;
import dev.baton.recipes.queue.QueueSerializer;
import dev.baton.recipes.queue.SimpleDistributedQueue;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The examples of docs/queues.md, compiled and run. */
@EnsembleTest
class QueueExamplesTest {

    /** docs/queues.md: "A serializer". */
    static final class JobSerializer implements QueueSerializer<String> {
        @Override
        public byte[] serialize(String job) {
            return job.getBytes(UTF_8);
        }

        @Override
        public String deserialize(byte[] bytes) {
            return new String(bytes, UTF_8);
        }
    }

    @Test
    void simpleQueue(BatonClient client) throws Exception {
        // docs/queues.md: "SimpleDistributedQueue"
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, "/examples/jobs");
        queue.offer("resize 42".getBytes(UTF_8));
        byte[] job = queue.poll(Duration.ofSeconds(5));   // null if nothing came within 5 s
        assertThat(new String(job, UTF_8)).isEqualTo("resize 42");
    }

    private final List<String> ran = new CopyOnWriteArrayList<>();

    private void run(byte[] job) {
        ran.add(new String(job, UTF_8));
    }

    @Test
    void simpleQueueInBatches(BatonClient client) throws Exception {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, "/examples/batches");
        for (int i = 0; i < 120; i++) {
            queue.offer(("job " + i).getBytes(UTF_8));
        }
        // docs/queues.md: "pollMulti"
        for (List<byte[]> jobs = queue.pollMulti(50); !jobs.isEmpty(); jobs = queue.pollMulti(50)) {
            jobs.forEach(job -> run(job));
        }
        assertThat(ran).hasSize(120).startsWith("job 0", "job 1").endsWith("job 119");
    }

    private final List<String> done = new CopyOnWriteArrayList<>();

    private void run(String job) {
        if (job.startsWith("bad")) {
            throw new IllegalArgumentException("cannot run " + job);
        }
        done.add(job);
    }

    @Test
    void guaranteedQueueWithDeadLetters(BatonClient client) throws Exception {
        // docs/queues.md: "DistributedQueue with guaranteed delivery"
        DistributedQueue<String> queue = QueueBuilder.builder(client, job -> run(job), new JobSerializer(), "/examples/work")
            .lockPath("/examples/work-locks")     // remove an item only after the consumer returned
            .maxItems(10_000)                     // put waits while 10,000 items wait
            .maxDeliveryAttempts(3)               // then the item becomes a dead letter
            .retryBackoff(Duration.ofMillis(10))
            .buildQueue();
        queue.start();
        queue.put("resize 42");
        queue.putMulti(List.of("resize 43", "bad 44", "resize 45"));   // one transaction
        await().atMost(Duration.ofSeconds(20)).until(() -> done.size() == 3 && queue.deadLetters().size() == 1);
        for (DeadLetter dead : queue.deadLetters()) {
            System.out.println(dead.item(new JobSerializer()) + " failed: " + dead.error());
        }
        queue.close();
        assertThat(done).containsExactly("resize 42", "resize 43", "resize 45");
    }

    @Test
    void delayQueue(BatonClient client) throws Exception {
        List<String> reminders = new CopyOnWriteArrayList<>();
        // docs/queues.md: "Delay queue"
        DistributedDelayQueue<String> queue = QueueBuilder.builder(client, reminders::add, new JobSerializer(), "/examples/reminders")
            .buildDelayQueue();
        queue.start();
        queue.put("send invoice 7", System.currentTimeMillis() + 200);   // not before 200 ms from now
        await().atMost(Duration.ofSeconds(10)).until(() -> reminders.size() == 1);
        queue.close();
    }
}

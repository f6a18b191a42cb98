package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.fail;

import dev.baton.framework.BatonClient;
import dev.baton.test.CountingClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Several waits on one queue object at once: one that ends (at its timeout) takes nothing away
 * from the others, which are still woken when what they wait for happens. (A wait that ends while
 * its client is closed is {@link ClientClosedUnderWaitTest}'s.)
 */
@EnsembleTest
class ConcurrentWaitsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    /**
     * Two puts wait for room in a full bounded queue, each with a watch of its own on the queue;
     * the first gives up at its timeout, and taking it back must not take the second's: the
     * second, which waits on that watch alone (it never polls), goes in when an item is taken.
     */
    @Test
    void aPutStillWaitingForRoomGoesInAfterAnotherWaitingPutGaveUp(BatonClient client, BatonClient other, TestInfo info)
        throws Exception {
        String path = "/concurrent-waits/" + info.getTestMethod().orElseThrow().getName();
        CountingClient counting = CountingClient.wrap(client);
        ExecutorService putter = Executors.newSingleThreadExecutor();
        try (DistributedQueue<String> producer = QueueBuilder.builder(counting.client(), null, Strings.UTF8, path)
            .maxItems(1).buildQueue()) {
            producer.start();
            producer.put("first");
            long before = counting.reads(CountingClient.Read.GET_CHILDREN);
            Future<Boolean> waiting = putter.submit(() -> producer.put("waits", Duration.ofMinutes(5)));
            await().atMost(WAIT).until(() -> counting.reads(CountingClient.Read.GET_CHILDREN) > before); // it counted: full
            assertThat(producer.put("gives up", Duration.ofMillis(200))).as("a second put into the full queue").isFalse();
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            try (DistributedQueue<String> consumer = QueueBuilder.builder(other, seen::add, Strings.UTF8, path).buildQueue()) {
                consumer.start();
                try {
                    assertThat(waiting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                        .as("the put still waiting, once an item was taken").isTrue();
                } catch (TimeoutException e) {
                    fail("the put still waited " + WAIT.toSeconds() + " s after an item was taken: nothing woke it");
                }
                await().atMost(WAIT).until(() -> seen.size() == 2);
            }
            assertThat(seen).containsExactly("first", "waits");
        } finally {
            putter.shutdownNow();
        }
    }
}

package dev.baton.recipes.queue;

import static dev.baton.test.CloseUnderWait.endsWithClientClosed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.CountingClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.OneShotWatches;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A queue call waiting through a client that is closed under it ends at once with
 * {@code ClientClosedException}, not at its timeout nor at its next look at the queue (its watch
 * never fires on a closed client): a take or timed poll on an empty queue, also once another wait
 * on the same queue object has ended, and a put waiting for room in a bounded queue, which then
 * puts nothing.
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    /** Far longer than {@code CloseUnderWait.PROMPTLY}: a wait that ends at its timeout fails the test. */
    private static final Duration LONG = Duration.ofMinutes(2);

    EmbeddedEnsemble ensemble;

    private static String path(TestInfo info) {
        return "/closed-under-wait/" + info.getTestMethod().orElseThrow().getName();
    }

    private BatonClient newClient() {
        return TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
    }

    @Test
    void takeFromAnEmptyQueueEnds(TestInfo info) throws Exception {
        String path = path(info);
        BatonClient client = newClient();
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path);
        // the look at the empty queue leaves a child watch on it
        endsWithClientClosed(client, () -> OneShotWatches.CHILD.on(client).contains(path), queue::take);
    }

    @Test
    void pollWithATimeoutOnAnEmptyQueueEndsBeforeItsTimeout(TestInfo info) throws Exception {
        String path = path(info);
        BatonClient client = newClient();
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path);
        endsWithClientClosed(client, () -> OneShotWatches.CHILD.on(client).contains(path), () -> queue.poll(LONG));
    }

    @Test
    void pollMultiWithATimeoutOnAnEmptyQueueEndsBeforeItsTimeout(TestInfo info) throws Exception {
        String path = path(info);
        BatonClient client = newClient();
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path);
        endsWithClientClosed(client, () -> OneShotWatches.CHILD.on(client).contains(path), () -> queue.pollMulti(10, LONG));
    }

    /**
     * The client is closed while its servers do not answer (a silent partition: no reply to the
     * close, no event from ZooKeeper, so no watch fires): only the client's word that it is closing
     * can wake the take.
     */
    @Test
    void takeEndsWhenTheClientClosesUnreachable(TestInfo info) throws Exception {
        closeUnreachableUnderATake(path(info), false);
    }

    /**
     * As {@link #takeEndsWhenTheClientClosesUnreachable}, after a second thread waited on the same
     * queue object and stopped (its poll timed out; an interrupted take is the same): the take still
     * waiting must be woken by the close all the same.
     */
    @Test
    void takeEndsAfterAnotherWaitOnTheSameQueueEndedWhenTheClientClosesUnreachable(TestInfo info) throws Exception {
        closeUnreachableUnderATake(path(info), true);
    }

    private void closeUnreachableUnderATake(String path, boolean anotherWaitEnds) throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1))) {
            // a long session: ZooKeeper's own timeouts stay far beyond the test's wait
            BatonClient client = TestClients.started(proxy.connectString(), Duration.ofSeconds(60));
            SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path);
            endsWithClientClosed(client, () -> {
                if (!OneShotWatches.CHILD.on(client).contains(path)) {
                    return false;   // the take has not looked yet
                }
                if (anotherWaitEnds) {
                    // a second wait on the same queue begins and ends (nothing came) while the take waits
                    assertThat(queue.poll(Duration.ofMillis(200))).as("a poll of the empty queue").isNull();
                }
                proxy.pause();
                return true;
            }, queue::take);
        }
    }

    @Test
    void putWaitingForRoomInABoundedQueueEndsAndPutsNothing(BatonClient other, TestInfo info) throws Exception {
        String path = path(info);
        BatonClient client = newClient();
        CountingClient counting = CountingClient.wrap(client);
        DistributedQueue<String> queue = QueueBuilder.builder(counting.client(), null, Strings.UTF8, path)
            .maxItems(1).buildQueue();
        queue.start();
        queue.put("first");
        long before = counting.reads(CountingClient.Read.GET_CHILDREN);
        // the put has counted the queue (full) once its watch for room was set: it waits
        endsWithClientClosed(client, () -> counting.reads(CountingClient.Read.GET_CHILDREN) > before,
            () -> queue.put("second", LONG));
        try (DistributedQueue<String> look = QueueBuilder.builder(other, null, Strings.UTF8, path).buildQueue()) {
            look.start();
            assertThat(look.count()).as("items in the queue after the put ended on its closed client").isEqualTo(1);
        }
        queue.close();
    }

    @Test
    void putMultiWaitingForRoomInABoundedQueueEndsAndPutsNothing(BatonClient other, TestInfo info) throws Exception {
        String path = path(info);
        BatonClient client = newClient();
        CountingClient counting = CountingClient.wrap(client);
        DistributedQueue<String> queue = QueueBuilder.builder(counting.client(), null, Strings.UTF8, path)
            .maxItems(3).buildQueue();
        queue.start();
        queue.putMulti(List.of("1", "2"));
        long before = counting.reads(CountingClient.Read.GET_CHILDREN);
        endsWithClientClosed(client, () -> counting.reads(CountingClient.Read.GET_CHILDREN) > before,
            () -> queue.putMulti(List.of("3", "4"), LONG));
        try (DistributedQueue<String> look = QueueBuilder.builder(other, null, Strings.UTF8, path).buildQueue()) {
            look.start();
            assertThat(look.count()).as("items in the queue after the put ended on its closed client").isEqualTo(2);
        }
        queue.close();
    }
}

package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CutOffClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A consumer or producer that boots while the ensemble is out of reach: {@code start()} returns
 * without a connection, and the queue consumes (or puts) once the connection comes.
 */
@EnsembleTest
class StartWithoutConnectionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    @Test
    void consumerStartsWithoutAConnectionAndConsumesOnceConnected(BatonClient producerClient) throws Exception {
        consumesOnceConnected(producerClient, "/offline/plain", null);
    }

    @Test
    void guaranteedConsumerStartsWithoutAConnectionAndConsumesOnceConnected(BatonClient producerClient) throws Exception {
        consumesOnceConnected(producerClient, "/offline/guaranteed", "/offline/guaranteed-locks");
    }

    @Test
    void producerStartsWithoutAConnectionAndPutsOnceConnected(BatonClient consumerClient) throws Exception {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (CutOffClient cutOff = CutOffClient.start(ensemble);
             DistributedQueue<String> producer = QueueBuilder.builder(cutOff.client(), null, Strings.UTF8, "/offline/producer")
                 .buildQueue()) {
            cutOff.assertStartsPromptly("producer queue", producer::start);
            cutOff.outlastConnectionTimeout();

            cutOff.connect();

            producer.put("first");
            try (DistributedQueue<String> consumer = QueueBuilder.builder(consumerClient, seen::add, Strings.UTF8, "/offline/producer")
                .buildQueue()) {
                consumer.start();
                producer.put("second");
                await().atMost(WAIT).until(() -> seen.size() >= 2);
            }
            assertThat(seen).containsExactly("first", "second");
        }
    }

    private void consumesOnceConnected(BatonClient producerClient, String path, String lockPath) throws Exception {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (DistributedQueue<String> producer = QueueBuilder.builder(producerClient, null, Strings.UTF8, path).buildQueue();
             CutOffClient cutOff = CutOffClient.start(ensemble)) {
            producer.start();
            producer.put("put before");
            QueueBuilder<String> builder = QueueBuilder.builder(cutOff.client(), seen::add, Strings.UTF8, path);
            try (DistributedQueue<String> consumer = (lockPath == null ? builder : builder.lockPath(lockPath)).buildQueue()) {
                cutOff.assertStartsPromptly("consumer queue", consumer::start);
                assertThat(consumer.state()).isEqualTo(QueueState.STARTED);
                cutOff.outlastConnectionTimeout();
                assertThat(seen).isEmpty();

                cutOff.connect();

                producer.put("put after");
                await().atMost(WAIT).until(() -> seen.size() >= 2);
                assertThat(seen).containsExactly("put before", "put after");
                assertThat(consumer.count()).isZero();
            }
        }
    }
}

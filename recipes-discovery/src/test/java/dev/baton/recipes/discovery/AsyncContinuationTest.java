package dev.baton.recipes.discovery;

import static dev.baton.recipes.discovery.Fixtures.discovery;
import static dev.baton.recipes.discovery.Fixtures.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A caller's continuation runs on the client's async pool. Continuations that write one registration
 * wait for each other (one write of an instance at a time); while they wait, the pool must still run
 * the steps the write under way waits for (its first create finds no parent folders, and makes them
 * with steps that complete on the pool).
 */
@EnsembleTest
class AsyncContinuationTest {
    @Test
    void registrationsOfOneInstanceFromContinuationsAllComplete(BatonClient client, BatonClient reader) {
        // bounded as a whole: stalled, the registrations never return, and neither does the discovery's close
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> registerFromContinuations(client, reader),
            "registrations from continuations, and the discovery's close, did not finish");
    }

    private static void registerFromContinuations(BatonClient client, BatonClient reader) throws Exception {
        // more than the pool has threads, counting spares it may keep from earlier managed waits
        int writers = ((ForkJoinPool) client.asyncExecutor()).getParallelism() * 4 + 1;
        try (ServiceDiscovery<Endpoint> registrant = discovery(client, "/continuation/services");
             ServiceDiscovery<Endpoint> seen = discovery(reader, "/continuation/services")) {
            List<CompletableFuture<Integer>> registered = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                int port = 9000 + i;
                // where a thenApply on one of the client's futures runs
                registered.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        registrant.registerService(instance("orders", "o1", port));
                        return port;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }, client.asyncExecutor()));
            }
            List<Integer> written = new ArrayList<>();
            for (CompletableFuture<Integer> registration : registered) {
                written.add(registration.get(20, TimeUnit.SECONDS)); // stalled before: TimeoutException
            }
            assertThat(written).as("every registration returned").hasSize(writers);
            assertThat(seen.queryForInstance("orders", "o1").port()).as("the last write is one of them").isIn(written);
            assertThat(registrant.registeredInstances()).hasSize(1);
        }
    }
}
